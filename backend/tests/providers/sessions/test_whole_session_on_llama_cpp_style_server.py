"""Issue #41's "done when": against a llama.cpp-style server with a 16k context that refuses streamed
tool calls, answers 500 to null content, offers tools only for an explicit "auto" and reports no
usage, an autopilot session reaches the AnswerPack with no 5xx at all (the probe recognises the
server, so it is never sent a streamed call with tools, and asks for JSON in its own grammar-constrained
`json_object` + `schema` form, not `json_schema`) and its tokens counted; the request
never asks for more than the window. Built by the composition root from Settings; only the SDK's HTTP
client is a MockTransport (see `llama_cpp_style_api`)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from providers.sessions.llama_cpp_style_api import LlamaCppStyleApi
from providers.sessions.offline_decisions_api import observe_requests
from providers.sessions.session_over_api import (
    app_client,
    engine_requests_missing,
    offline_deciders,
    run_to_the_answer,
    stages_without_results,
)
from support.sse_client import Received

from forge.config import Settings
from forge.providers import openai_compatible_model
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.structured_output import SchemaStructuredModel


@pytest.fixture
async def llama_server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LlamaCppStyleApi]:
    offline, structured = offline_deciders()
    api = LlamaCppStyleApi(offline.complete, structured)
    async with httpx.AsyncClient(transport=httpx.MockTransport(api)) as http_client:
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=http_client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
        observe_requests(monkeypatch, OpenAICompatibleModel, SchemaStructuredModel)
        yield api


# The probe's requests, in order: what llama-cpp-python's server does not have is a 404.
PROBE_PATHS = ("/v1/models", "/props", "/api/show", "/tokenize", "/extras/tokenize/count")


def local_settings(tmp_path: Path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}",
        model="local:gemma-3-270m",
        openai_base_url="http://127.0.0.1:8080/v1",
        openai_context_window=16_384,
    )


def session_tokens(events: list[Received]) -> int:
    return max(int(e.data.get("session_tokens", 0)) for e in events if e.type == "context_usage")


async def test_an_autopilot_session_reaches_the_answer_pack_on_a_llama_cpp_style_server(
    llama_server: LlamaCppStyleApi, tmp_path: Path
) -> None:
    async for client in app_client(local_settings(tmp_path)):
        sid, events = await run_to_the_answer(client, autopilot=True)
        pack = await client.get(f"/api/v1/sessions/{sid}/answer.json")

    assert llama_server.failures == [] and llama_server.refusals == []
    assert llama_server.probe_requests == list(PROBE_PATHS)  # learned once for the whole session
    # The probe recognised llama-cpp-python, so no streamed call with tools was sent: no 5xx, no 400.
    assert llama_server.served_5xx == [] and set(llama_server.statuses) == {200}
    assert llama_server.unstreamed_tool_calls > 0
    assert llama_server.constrained_replies == len(llama_server.schema_names) > 0  # engine stages: json_object
    assert llama_server.prose_replies == 0  # tools were always offered with an explicit tool_choice
    assert 0 < llama_server.largest_request <= llama_server.n_ctx
    assert pack.status_code == 200 and pack.json()["direct_answer"]
    assert engine_requests_missing(set(llama_server.schema_names)) == set()
    assert stages_without_results(events) == []
    used = [int(e.data["tokens_used"]) for e in events if e.type == "context_usage"]
    assert used and min(used) > 0  # every call counted locally: the server reported no usage
    assert session_tokens(events) >= sum(used)  # the session's total has them all (and the engine's)
