"""What an OpenAI-compatible server can do, learned from the server itself (free, local calls).

Invariants:
    - `probe_server` never raises: an endpoint that is missing, refuses or times out is simply not a
      source; `reachable` is False only when not even `/models` answered with a 2xx.
    - The context window is read, in order, from vLLM's `max_model_len` or llama.cpp's
      `meta.n_ctx_train` in `/v1/models`, llama.cpp's `/props`
      (`default_generation_settings.n_ctx`, also `total_slots`), Ollama's `/api/ps` (the context a
      loaded model runs with), else its `/api/show` (`num_ctx`, else `model_info.<arch>.context_length`,
      the trained length: only an upper bound, noted, since Ollama runs models at a smaller default);
      none of them: None (the configured window is used).
    - The token margin is measured on the server's own tokenizer when it has one (llama.cpp's
      `/tokenize`, llama-cpp-python's `/extras/tokenize/count`): the ratio of its count to
      cl100k_base's over a sample, times 1.1, never below MIN_MARGIN; else None (the default).
    - A server recognised as llama-cpp-python's (only it has `/extras/tokenize/count`) is known not to
      stream tool calls (`streams_tools` False from the start: its function-calling chat formats
      answer 500 to a streamed call with `tool_choice: "auto"`), and to want a JSON schema as its own
      `{"type": "json_object", "schema": ...}` (grammar-constrained; it answers `json_schema` with a
      500 listing its validation error), so no session call is refused; and to leave `tool` messages
      out of the prompt (its `chatml-function-calling` template renders only system, user and
      assistant turns), so tool results are sent as user text (`tool_results_as_text`).
    - Pure reading of the JSON bodies is split from the IO (`window_from_*`), so it is unit-tested.
    - `KNOWN_SERVERS` keeps, per process, the facts of each (base_url, model) whose probe reached the
      server: every model object built for it (`forge doctor`'s, the session's, the evaluation's)
      shares them, so the server is probed once per process, and what one call learns (a refused
      streamed call with tools) holds for all. An unreachable server is not kept: the next model
      object probes again (it may have started since).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from forge.providers.token_counting import cl100k_length

MIN_MARGIN = 1.1
SAFETY_OVER_MEASURED = 1.1
PROBE_TIMEOUT_S = 5.0
# A sample of the prose and JSON the product sends, to measure the server's tokenizer against cl100k.
TOKEN_SAMPLE = (
    "Decompose the problem into fundamentals, assumptions and reframings. "
    '{"claim_index": 3, "verdict": "supported", "evidence": ["E12", "E14"], "confidence": 0.72} '
    "Die Wärmeleitfähigkeit des Materials begrenzt die Kühlleistung; 热传导限制了冷却性能。"
)

LLAMA_CPP_PYTHON_NOTE = (
    "llama-cpp-python's server (it has /extras/tokenize): calls with tools are made without streaming "
    "(its chatml-function-calling handler refuses a streamed call with tool_choice auto), and a JSON schema "
    "is asked for as its grammar-constrained `json_object` + `schema` (it refuses `json_schema`), and tool "
    "results go as user text (its chatml-function-calling prompt leaves `tool` messages out)"
)

OLLAMA_TRAINED = "/api/show: the model's trained length, not the one Ollama runs it with"
OLLAMA_NOTE = (
    "Ollama runs a model at its own default context (4k on a small machine) unless OLLAMA_CONTEXT_LENGTH or "
    "num_ctx says otherwise, and silently cuts a longer prompt: start it with OLLAMA_CONTEXT_LENGTH=16384 and "
    "set OPENAI_CONTEXT_WINDOW to the same"
)

GetJson = Callable[[str], Awaitable[Any]]
PostJson = Callable[[str, Mapping[str, Any]], Awaitable[Any]]


@dataclass
class ServerFacts:
    """What was learned about one server and model (None: not learned; the configured value holds)."""

    reachable: bool | None = None
    models: tuple[str, ...] = ()
    context_window: int | None = None
    window_source: str = ""
    slots: int | None = None
    token_margin: float | None = None
    streams_tools: bool = True  # False for llama-cpp-python, or once the server refused a streamed call with tools
    # How a JSON schema is asked for: OpenAI's `json_schema`; llama-cpp-python's own `json_object` + `schema`.
    schema_format: str = "json_schema"
    reports_usage: bool | None = None  # False once a reply came without usage
    tool_results_as_text: bool = False  # True for llama-cpp-python: its prompt leaves `tool` messages out
    notes: list[str] = field(default_factory=list)


class KnownServers:
    """The facts learned about each server and model, shared by every model object over them."""

    def __init__(self) -> None:
        self._facts: dict[tuple[str, str], ServerFacts] = {}

    def facts_of(self, base_url: str, model: str) -> ServerFacts | None:
        return self._facts.get((base_url.rstrip("/"), model))

    def remember(self, base_url: str, model: str, facts: ServerFacts) -> None:
        """Keep `facts` for the server and model, unless the probe did not reach the server."""
        if facts.reachable:
            self._facts[(base_url.rstrip("/"), model)] = facts

    def forget_all(self) -> None:
        self._facts.clear()


KNOWN_SERVERS = KnownServers()  # this process's: `openai_compatible_model_from_settings` shares it


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _entries(body: object) -> list[Mapping[str, Any]]:
    data = body.get("data") if isinstance(body, Mapping) else None
    return [e for e in data if isinstance(e, Mapping)] if isinstance(data, list) else []


def window_from_models(body: object, model: str) -> int | None:
    """vLLM's `max_model_len` or llama.cpp's `meta.n_ctx_train` of `model` (or the only model listed)."""
    entries = _entries(body)
    chosen = [e for e in entries if e.get("id") == model] or (entries if len(entries) == 1 else [])
    for entry in chosen:
        meta = entry.get("meta")
        found = _int(entry.get("max_model_len")) or (
            _int(meta.get("n_ctx_train")) if isinstance(meta, Mapping) else None
        )
        if found:
            return found
    return None


def window_from_props(body: object) -> tuple[int | None, int | None]:
    """llama.cpp's `/props`: (the slot's n_ctx, total_slots)."""
    if not isinstance(body, Mapping):
        return None, None
    settings = body.get("default_generation_settings")
    n_ctx = _int(settings.get("n_ctx")) if isinstance(settings, Mapping) else None
    return n_ctx or _int(body.get("n_ctx")), _int(body.get("total_slots"))


def window_from_ollama_show(body: object) -> int | None:
    """Ollama's `/api/show`: the `num_ctx` it runs with, else the model's `<arch>.context_length`."""
    if not isinstance(body, Mapping):
        return None
    parameters = body.get("parameters")
    if isinstance(parameters, str):
        for line in parameters.splitlines():
            name, _, value = line.strip().partition(" ")
            if name == "num_ctx" and value.strip().isdigit():
                return int(value.strip())
    info = body.get("model_info")
    if isinstance(info, Mapping):
        return next((_int(v) for k, v in info.items() if str(k).endswith(".context_length") and _int(v)), None)
    return None


def window_from_ollama_ps(body: object, model: str) -> int | None:
    """Ollama's `/api/ps`: the `context_length` a loaded `model` runs with (None: not loaded)."""
    models = body.get("models") if isinstance(body, Mapping) else None
    names = {model, f"{model}:latest"}
    for entry in models if isinstance(models, list) else ():
        if isinstance(entry, Mapping) and (entry.get("name") in names or entry.get("model") in names):
            return _int(entry.get("context_length"))
    return None


def count_from_tokenize(body: object) -> int | None:
    """llama.cpp's `/tokenize` (`tokens`) or llama-cpp-python's `/extras/tokenize/count` (`count`)."""
    if not isinstance(body, Mapping):
        return None
    tokens = body.get("tokens")
    return len(tokens) if isinstance(tokens, list) and tokens else _int(body.get("count"))


def margin_for(server_count: int, sample: str = TOKEN_SAMPLE) -> float:
    """How much to scale cl100k counts so they are not below the server's: measured × 1.1, ≥ MIN_MARGIN."""
    measured = server_count / max(1, cl100k_length(sample))
    return max(MIN_MARGIN, math.ceil(round(measured * SAFETY_OVER_MEASURED * 100, 6)) / 100)


def server_root(base_url: str) -> str:
    """The server's root URL: the base_url without its trailing `/v1` (llama.cpp's `/props` lives there)."""
    parts = urlsplit(base_url.rstrip("/"))
    path = parts.path[: -len("/v1")] if parts.path.endswith("/v1") else parts.path
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


async def _try(fetch: Awaitable[Any]) -> Any:
    try:
        return await fetch
    except Exception:  # a probe that fails is just not a source
        return None


async def _learn_from_ollama(facts: ServerFacts, get: GetJson, post: PostJson, root: str, model: str) -> None:
    """Ollama: the window a loaded model runs with (`/api/ps`), else its `num_ctx`, else its trained
    length — only an upper bound: Ollama runs a model at its default context (4k on a small machine)."""
    shown = await _try(post(root + "/api/show", {"model": model}))
    if not isinstance(shown, Mapping):
        return
    running = window_from_ollama_ps(await _try(get(root + "/api/ps")), model)
    if running:
        facts.context_window, facts.window_source = running, "/api/ps"
        return
    facts.context_window, facts.window_source = window_from_ollama_show(shown), "/api/show"
    if facts.context_window and not _num_ctx(shown):
        facts.window_source = OLLAMA_TRAINED
        facts.notes.append(OLLAMA_NOTE)


def _num_ctx(shown: Mapping[str, Any]) -> bool:
    parameters = shown.get("parameters")
    return isinstance(parameters, str) and any(line.split()[:1] == ["num_ctx"] for line in parameters.splitlines())


async def probe_server(get: GetJson, post: PostJson, base_url: str, model: str) -> ServerFacts:
    """Reachability, the model list, the context window, the slots and the token margin."""
    facts = ServerFacts()
    models = await _try(get(base_url.rstrip("/") + "/models"))
    facts.reachable = models is not None
    if models is None:
        return facts
    facts.models = tuple(str(e.get("id")) for e in _entries(models) if e.get("id"))
    root = server_root(base_url)
    facts.context_window, facts.window_source = window_from_models(models, model), "/v1/models"
    props_window, facts.slots = window_from_props(await _try(get(root + "/props")))
    if facts.context_window is None or props_window:  # a slot's n_ctx beats the trained length
        facts.context_window, facts.window_source = props_window or facts.context_window, "/props"
    if facts.context_window is None:
        await _learn_from_ollama(facts, get, post, root, model)
    if facts.context_window is None:
        facts.window_source = ""
    counted = count_from_tokenize(await _try(post(root + "/tokenize", {"content": TOKEN_SAMPLE})))
    if not counted:
        counted = count_from_tokenize(
            await _try(post(root + "/extras/tokenize/count", {"input": TOKEN_SAMPLE, "model": model}))
        )
        if counted:  # only llama-cpp-python's server has /extras/tokenize
            facts.streams_tools, facts.schema_format, facts.tool_results_as_text = False, "json_object", True
            facts.notes.append(LLAMA_CPP_PYTHON_NOTE)
    facts.token_margin = margin_for(counted) if counted else None
    return facts
