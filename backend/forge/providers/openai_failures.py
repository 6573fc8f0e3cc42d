"""How a failed OpenAI-compatible Chat Completions call is classified and explained.

Invariants:
    - A context overflow (OpenAI's `context_length_exceeded`, vLLM's "maximum context length",
      llama.cpp's `exceed_context_size_error`, llama-cpp-python's "exceed context window") is never
      retried: the caller compacts.
    - A server's refusal to stream a call with tools (llama-cpp-python: "Automatic streaming tool
      choice is not supported", whatever its status) is not retried: the caller learns it once and
      calls without streaming from then on (`is_streamed_tools_refusal`); on a local server so is a
      stream with tools that ends with nothing at all (`EmptyToolStreamError`: how the real
      llama-cpp-python 0.3.36 refuses, mid-stream after its 200).
    - A 500 that lists the server's own request validation errors (llama-cpp-python) is a refusal
      of the request's shape, not an outage: not retried (`is_request_shape_refusal`).
    - A timed-out call to a local server is not retried: the server goes on working on the abandoned
      request (a one-slot server would queue the retry behind it); the message names
      FORGE_MODEL_TIMEOUT_S. Hosted APIs cancel on disconnect, so their timeouts are retried.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import httpx2
import openai

from forge.providers.call_with_retries import FailureKind
from forge.providers.sdk_retries import retry_after_s

CONTEXT_OVERFLOW_CODES = frozenset({"context_length_exceeded"})
CONTEXT_OVERFLOW_TYPES = frozenset({"exceed_context_size_error"})
CONTEXT_OVERFLOW_PHRASES = (
    "maximum context length",
    "context length",
    "context window",
    "context size",
    "prompt is too long",
)
RETRYABLE_STATUSES = frozenset({408, 429})


class StreamCutError(Exception):
    """The stream ended without a finish_reason: the server or the connection stopped mid-reply."""


class EmptyToolStreamError(StreamCutError):
    """A stream with tools offered that ended with nothing at all: llama-cpp-python sends its 200 and
    then raises its refusal of streamed tool calls, so the refusal arrives as an empty, cut stream."""


def is_openai_url(base_url: str) -> bool:
    host = urlsplit(base_url).hostname or ""
    return host == "openai.com" or host.endswith(".openai.com")


def _api_message(error: openai.APIError) -> str:
    """The server's own words: `error.message` of the body, or a bare string body (Ollama's)."""
    body = error.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return body if isinstance(body, str) and body else error.message


def is_context_overflow(error: Exception) -> bool:
    if not isinstance(error, openai.APIError):
        return False
    if (error.code or "") in CONTEXT_OVERFLOW_CODES or str(error.type or "") in CONTEXT_OVERFLOW_TYPES:
        return True
    status = error.status_code if isinstance(error, openai.APIStatusError) else None
    text = _api_message(error).lower()
    return status in (None, 400, 413) and any(phrase in text for phrase in CONTEXT_OVERFLOW_PHRASES)


def is_streamed_tools_refusal(error: BaseException | None) -> bool:
    """The server refused to stream a reply that may call tools (it would answer without streaming)."""
    if not isinstance(error, openai.APIStatusError) or is_context_overflow(error):
        return False
    text = _api_message(error).lower()
    return "stream" in text and ("tool" in text or "function" in text) and "not supported" in text


def is_request_shape_refusal(error: BaseException | None) -> bool:
    """A 500 that is really a refusal of the request's shape: llama-cpp-python's server answers its own
    request validation errors (e.g. `response_format.type` 'json_schema') with a 500 listing them."""
    if not isinstance(error, openai.APIStatusError) or error.status_code != 500:
        return False
    text = _api_message(error)
    return "validation error" in text and "'body'" in text


def classify_failure(error: Exception, local: bool = False) -> FailureKind:
    """Which failures of a Chat Completions call are worth another attempt."""
    if is_context_overflow(error):
        return FailureKind(retryable=False, context_overflow=True)
    if is_streamed_tools_refusal(error) or is_request_shape_refusal(error):
        return FailureKind(retryable=False)
    if local and isinstance(error, openai.APITimeoutError | EmptyToolStreamError):
        return FailureKind(retryable=False)
    if isinstance(error, openai.APIConnectionError | httpx.TransportError | httpx2.TransportError | StreamCutError):
        return FailureKind(retryable=True)
    if isinstance(error, openai.APIStatusError):
        if error.code == "insufficient_quota":  # a 429 that waiting will not fix
            return FailureKind(retryable=False)
        if error.status_code in RETRYABLE_STATUSES or error.status_code >= 500:
            return FailureKind(retryable=True, retry_after_s=retry_after_s(error.response.headers))
        return FailureKind(retryable=False)
    # An `error` event inside a stream: the server failed mid-reply.
    return FailureKind(retryable=isinstance(error, openai.APIError))


def explain_failure(error: Exception, model: str, endpoint: str, local: bool, timeout_s: float = 0.0) -> str:
    """What a person must fix when a call fails for good (a bad key, model, base_url or request)."""
    if isinstance(error, openai.APITimeoutError):
        return (
            f"{endpoint} did not answer within {timeout_s:g} s (FORGE_MODEL_TIMEOUT_S); not retried, since a "
            "local server keeps working on an abandoned request. Raise FORGE_MODEL_TIMEOUT_S, or use a "
            "smaller or faster model."
        )
    if not isinstance(error, openai.APIStatusError):
        return f"The call to {endpoint} failed: {type(error).__name__}: {error}"
    status, detail = error.status_code, _api_message(error)
    if status == 401:
        hint = " (a local server started with --api-key needs that key there)" if local else ""
        return f"{endpoint} rejected the API key (401: {detail}); check OPENAI_API_KEY{hint}."
    if status == 403:
        return f"{endpoint} refused the request (403: {detail}); check the key's access to model {model!r}."
    if status == 404:
        return (
            f"{endpoint} does not know model {model!r} or the URL is wrong (404: {detail}); check the "
            "model name in FORGE_MODEL and OPENAI_BASE_URL (OpenAI-compatible servers usually end in /v1)."
        )
    if error.code == "insufficient_quota":
        return f"{endpoint} says the account has no quota left (429: {detail}); check its plan and billing."
    return f"{endpoint} rejected the request ({status}: {detail})."
