"""The capability catalogue: shipped table, snapshot and alias lookup, Models API refresh and cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import httpx2

from forge.core.llm.capabilities import StructuredMethod, ThinkingMode
from forge.providers.model_catalogue import SHIPPED_TABLE, ModelCatalogue, shipped_catalogue


def _support(flag: bool) -> dict[str, bool]:
    return {"supported": flag}


def _model_info(model_id: str, *, enabled: bool, disabled: bool, structured: bool) -> dict[str, Any]:
    """A ModelInfo as the Models API documents it (capabilities with every key present)."""
    levels = {level: _support(True) for level in ("low", "medium", "high", "xhigh", "max")}
    return {
        "type": "model",
        "id": model_id,
        "display_name": model_id,
        "created_at": "2026-11-20T00:00:00Z",
        "lifecycle": "active",
        "max_input_tokens": 1_000_000,
        "max_tokens": 128_000,
        "capabilities": {
            "batch": _support(True),
            "citations": _support(True),
            "code_execution": _support(True),
            "context_management": {"supported": True},
            "effort": {"supported": True, **levels},
            "image_input": _support(True),
            "pdf_input": _support(True),
            "server_tools": {"supported": True, "web_search": _support(True), "code_execution": _support(True)},
            "structured_outputs": _support(structured),
            "thinking": {
                "supported": True,
                "types": {
                    "adaptive": _support(True),
                    "enabled": _support(enabled),
                    "disabled": _support(disabled),
                    "between_tools": _support(False),
                },
            },
        },
    }


def test_the_shipped_table_knows_the_current_lineup_and_what_each_refuses() -> None:
    catalogue = shipped_catalogue()
    for model in ("claude-opus-5-5", "claude-fable-5-1", "claude-sonnet-5-5"):
        caps = catalogue.capabilities(model)
        assert caps.thinking_mode is ThinkingMode.ADAPTIVE
        assert "enabled" not in caps.thinking_types and "disabled" not in caps.thinking_types
        assert not caps.forced_tool_use and caps.structured_method is StructuredMethod.JSON_SCHEMA
    assert catalogue.capabilities("claude-opus-5-5").default_effort == "medium"
    assert catalogue.capabilities("claude-haiku-5-5").thinking_can_be_off
    older = catalogue.capabilities("claude-3-7-sonnet-latest")
    assert older.thinking_mode is ThinkingMode.MANUAL and older.effort_levels == ()
    assert older.structured_method is StructuredMethod.FORCED_TOOL


def test_a_new_snapshot_of_a_listed_model_gets_its_row_and_an_unknown_model_conservative_defaults() -> None:
    catalogue = shipped_catalogue()
    assert "(claude-sonnet-4-5-20250929)" in catalogue.capabilities("claude-sonnet-4-5-20991231").source
    unknown = catalogue.capabilities("claude-nova-9")
    assert not catalogue.known("claude-nova-9")
    assert unknown.thinking_mode is ThinkingMode.NONE and unknown.structured_method is StructuredMethod.FORCED_TOOL


def test_effort_is_clamped_to_a_level_the_model_accepts() -> None:
    sonnet_4_6 = shipped_catalogue().capabilities("claude-sonnet-4-6")
    assert sonnet_4_6.effort_for("xhigh") == "high"  # no xhigh on 4.6: the next level down
    assert sonnet_4_6.effort_for("max") == "max"
    assert shipped_catalogue().capabilities("claude-sonnet-4-5").effort_for("high") is None


async def test_a_refresh_reads_the_models_api_caches_it_and_infers_forced_tools_for_unknown_models(
    tmp_path: Path,
) -> None:
    page = {
        "data": [
            _model_info("claude-nova-9", enabled=False, disabled=False, structured=True),
            _model_info("claude-sonnet-4-6", enabled=True, disabled=True, structured=True),
        ],
        "has_more": False,
        "first_id": "claude-nova-9",
        "last_id": "claude-sonnet-4-6",
    }
    seen: list[httpx2.Request] = []

    def serve(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, json=page)

    async with httpx2.AsyncClient(transport=httpx2.MockTransport(serve)) as http:
        client = anthropic.AsyncAnthropic(api_key="sk-ant-test", http_client=http, max_retries=0)
        catalogue = ModelCatalogue(tmp_path / "models.json")
        note = await catalogue.refresh(client)
    assert note == "Models API: 2 models cached"
    assert [(r.method, r.url.path) for r in seen] == [("GET", "/v1/models")]
    nova = ModelCatalogue(tmp_path / "models.json").capabilities("claude-nova-9")  # read back from the cache
    assert nova.source == "Models API" and nova.context_window == 1_000_000
    assert nova.thinking_mode is ThinkingMode.ADAPTIVE and not nova.forced_tool_use
    assert nova.effort_for("xhigh") == "xhigh"
    sonnet = catalogue.capabilities("claude-sonnet-4-6")
    assert sonnet.forced_tool_use and sonnet.default_effort == "high"  # kept from the table
    assert json.loads((tmp_path / "models.json").read_text())[0]["id"] == "claude-nova-9"


async def test_a_failed_refresh_leaves_the_shipped_table() -> None:
    def refuse(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(401, json={"type": "error", "error": {"type": "authentication_error", "message": "x"}})

    async with httpx2.AsyncClient(transport=httpx2.MockTransport(refuse)) as http:
        client = anthropic.AsyncAnthropic(api_key="sk-ant-test", http_client=http, max_retries=0)
        catalogue = ModelCatalogue()
        note = await catalogue.refresh(client)
    assert note.startswith("Models API not read (AuthenticationError")
    assert catalogue.capabilities("claude-opus-5-5").source.startswith("shipped table (claude-opus-5-5): docs: ")


def test_every_shipped_row_says_where_its_values_come_from() -> None:
    catalogue = ModelCatalogue()
    table = json.loads(SHIPPED_TABLE.read_text(encoding="utf-8"))
    for model, row in table["models"].items():
        assert row["source"].strip(), model
        assert catalogue.capabilities(model).source.endswith(row["source"]), model
    haiku = catalogue.capabilities("claude-haiku-5-5")  # its model page: 1M context (was assumed 200k)
    assert (haiku.context_window, haiku.max_output_tokens, haiku.default_effort) == (1_000_000, 128_000, "medium")
