"""`forge doctor` on a local OpenAI-compatible server (llama.cpp, vLLM, Ollama): is anything listening,
which window and slots it has, and whether the model calls tools at all.

Invariants:
    - What the probe learns overrides what the role's line assumed: a server that takes JSON schemas
      in its own form (llama-cpp-python's `json_object` + `schema`) gets a "structured output" line.
    - Only a `local:` route is probed, and only its own server (free: `GET /models`, `/props`, a
      tokenizer count, and up to TOOL_TRIES short chat calls with one tool).
    - Nothing listening, or a model that made no tool call in TOOL_TRIES tries, is a problem (doctor
      exits non-zero) with what to change; a window the server does not report, or only as Ollama's
      trained length, is a warning naming OPENAI_CONTEXT_WINDOW.
"""

from __future__ import annotations

from forge.bootstrap.adapters import build_model
from forge.bootstrap.model_routing import ModelRoute, Provider, resolve_routes
from forge.cli.doctor_models import Finding
from forge.config import Settings
from forge.core.llm.messages import ModelRequest, ToolDefinition, user_text
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.openai_server_facts import OLLAMA_NOTE, OLLAMA_TRAINED

TOOL_TRIES = 3
CHECK_TOOL = ToolDefinition(
    "record_answer",
    "Record the answer to the question.",
    {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]},
)
CHECK_REQUEST = ModelRequest(
    "You answer by calling tools.",
    (user_text("What is 2 + 2? Call record_answer with the answer."),),
    (CHECK_TOOL,),
    max_tokens=128,
)
NO_TOOL_FIX = (
    "this model made no tool call in {tries} tries — choose a model with a tool-calling chat template, or start "
    "llama.cpp's llama-server with --jinja (llama-cpp-python: --chat_format chatml-function-calling)"
)


def _local_route(settings: Settings) -> ModelRoute | None:
    try:
        routes = resolve_routes(settings)
    except ValueError:
        return None
    return next((r for r in (routes.generator, routes.verifier) if r.provider == Provider.LOCAL), None)


async def local_server_findings(settings: Settings, *, check_tools: bool = True) -> list[Finding]:
    """What the local server reports, and whether its model calls tools ([] without a local route)."""
    route = _local_route(settings)
    if route is None or not settings.openai_base_url:
        return []
    model = build_model(route, settings)
    if not isinstance(model, OpenAICompatibleModel):
        return []
    await model.learn_server()
    facts, url = model.facts, settings.openai_base_url
    if not facts.reachable:
        fix = f"start the server (e.g. `llama-server -m model.gguf --port 8080 --jinja`) or fix OPENAI_BASE_URL ({url})"
        return [Finding("local server", f"nothing answers at {url.rstrip('/')}/models", False, fix)]
    listed = ", ".join(facts.models) or "none listed"
    known = "".join(f"; {note}" for note in facts.notes if note != OLLAMA_NOTE)
    findings = [Finding("local server", f"{url}: reachable; models: {listed}{known}")]
    findings.append(_window_finding(model, settings))
    if facts.schema_format != "json_schema":  # learned from the server: the role's line assumed json_schema
        form = f"response_format {facts.schema_format} + schema (the server's grammar-constrained form; it refuses json_schema)"
        findings.append(Finding("structured output", form))
    if check_tools:
        findings.append(await _tool_finding(model))
    return findings


def _window_finding(model: OpenAICompatibleModel, settings: Settings) -> Finding:
    facts = model.facts
    slots = f", {facts.slots} slot(s)" if facts.slots else ""
    margin = f", token margin ×{facts.token_margin:.2f} (measured on its tokenizer)" if facts.token_margin else ""
    if facts.context_window:
        value = f"{model.context_window} tokens (the server's {facts.window_source}){slots}{margin}"
        if facts.window_source == OLLAMA_TRAINED and not settings.openai_context_window:
            return Finding("context window", value, True, OLLAMA_NOTE, warning=True)
        return Finding("context window", value)
    if settings.openai_context_window:
        return Finding("context window", f"{model.context_window} tokens (OPENAI_CONTEXT_WINDOW){slots}{margin}")
    fix = "the server does not report its window: set OPENAI_CONTEXT_WINDOW to its n_ctx (e.g. --n_ctx 16384)"
    return Finding("context window", f"{model.context_window} tokens (a default){margin}", True, fix, warning=True)


async def _tool_finding(model: OpenAICompatibleModel) -> Finding:
    """Up to TOOL_TRIES short calls with one tool: does the model call it?"""
    for attempt in range(1, TOOL_TRIES + 1):
        try:
            response = await model.complete(CHECK_REQUEST)
        except Exception as error:
            return Finding(
                "tool calls", f"the check call failed: {error}", False, "see the error; check the server's log"
            )
        if response.message.tool_calls:
            return Finding("tool calls", f"the model called a tool (try {attempt} of {TOOL_TRIES})")
    return Finding("tool calls", "none", False, NO_TOOL_FIX.format(tries=TOOL_TRIES))
