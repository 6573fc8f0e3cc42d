"""`forge doctor` reports routes, keys and the database without calling any model."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from support.fresh_database import migrated_sqlite_url

from forge.cli.doctor import Finding, diagnose, render
from forge.cli.main import main
from forge.config import Settings
from forge.providers import openai_compatible_model


def _by_topic(findings: list[Finding]) -> dict[str, Finding]:
    return {f.topic: f for f in findings}


async def test_embedded_defaults_are_all_set_once_migrated(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    findings = await diagnose(Settings(database_url=url))
    assert all(f.ok for f in findings), render(findings)
    assert _by_topic(findings)["generator"].value == "offline"
    assert "schema at head" in _by_topic(findings)["database"].value


async def test_unmigrated_database_asks_for_forge_migrate(tmp_path: Path) -> None:
    findings = await diagnose(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"))
    database = _by_topic(findings)["database"]
    assert not database.ok and database.fix == "run `forge migrate`"


async def test_missing_key_and_unreachable_database_are_named_with_their_fix(tmp_path: Path) -> None:
    settings = Settings(
        database_url="postgresql+asyncpg://postgres@127.0.0.1:1/nowhere",
        model="anthropic:claude-sonnet-4-6",
        verifier_model="openai:gpt-4o",
        anthropic_api_key="sk-ant-secret-9876",
    )
    findings = _by_topic(await diagnose(settings))
    assert findings["generator"].ok and findings["ANTHROPIC_API_KEY"].value == "present (…9876)"
    assert not findings["verifier (VALIDATE)"].ok and "OPENAI_API_KEY" in (findings["verifier (VALIDATE)"].fix or "")
    assert not findings["database"].ok and "unreachable" in findings["database"].value
    assert "secret" not in render(list(findings.values()))


async def test_anthropic_research_names_web_search_and_web_fetch(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    settings = Settings(
        database_url=url, model="anthropic:claude-sonnet-5-5", anthropic_api_key="sk-ant-x", research="anthropic"
    )
    researcher = _by_topic(await diagnose(settings))["researcher"]
    assert researcher.ok and researcher.value == "Anthropic web search + web fetch (≤3 pages a call) + local corpus"


async def test_a_local_server_with_nothing_listening_is_a_problem_named_with_its_fix(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    settings = Settings(database_url=url, model="local:gemma-3-270m", openai_base_url="http://127.0.0.1:9/v1")
    findings = await diagnose(settings)
    server = _by_topic(findings)["local server"]
    assert not server.ok and "nothing answers at http://127.0.0.1:9/v1/models" in server.value
    assert "OPENAI_BASE_URL" in (server.fix or "")
    assert not render(findings).endswith("All set.")


def _llama_cpp_python(answer: dict[str, object]) -> Callable[[httpx.Request], httpx.Response]:
    def serve(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/models":
            return httpx.Response(200, json={"object": "list", "data": [{"id": "gemma-3-270m", "object": "model"}]})
        if request.url.path == "/v1/chat/completions":
            choice = {"index": 0, "message": answer, "finish_reason": "stop"}
            return httpx.Response(200, json={"id": "c", "object": "chat.completion", "model": "m", "choices": [choice]})
        return httpx.Response(404, json={"detail": "Not Found"})

    return serve


async def test_a_local_model_that_calls_no_tool_is_a_problem_and_an_unreported_window_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prose = {"role": "assistant", "content": "The answer is 4."}
    transport = httpx.MockTransport(_llama_cpp_python(prose))
    async with httpx.AsyncClient(transport=transport) as client:
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
        url = await migrated_sqlite_url(tmp_path)
        settings = Settings(database_url=url, model="local:gemma-3-270m", openai_base_url="http://127.0.0.1:8080/v1")
        findings = _by_topic(await diagnose(settings))

    assert findings["local server"].ok and "models: gemma-3-270m" in findings["local server"].value
    window = findings["context window"]
    assert window.ok and window.warning and "OPENAI_CONTEXT_WINDOW" in (window.fix or "")
    tools = findings["tool calls"]
    assert not tools.ok and "made no tool call in 3 tries" in (tools.fix or "") and "--jinja" in (tools.fix or "")


async def test_llama_cpp_python_is_said_to_take_json_schemas_its_own_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    called = {"role": "assistant", "content": "", "tool_calls": [_CALL]}
    plain = _llama_cpp_python(called)

    def serve(request: httpx.Request) -> httpx.Response:  # llama-cpp-python's own tokenizer route
        if request.url.path == "/extras/tokenize/count":
            return httpx.Response(200, json={"count": 40})
        return plain(request)

    async with httpx.AsyncClient(transport=httpx.MockTransport(serve)) as client:
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
        url = await migrated_sqlite_url(tmp_path)
        settings = Settings(database_url=url, model="local:gemma-3-270m", openai_base_url="http://127.0.0.1:8080/v1")
        findings = _by_topic(await diagnose(settings))

    structured = findings["structured output"]
    assert structured.ok and structured.value.startswith("response_format json_object + schema")
    assert findings["tool calls"].ok


def _doctor_on(
    server: Callable[[httpx.Request], httpx.Response] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    """`forge doctor` as a person runs it: a local route from the environment, the database migrated first;
    `server` answers at OPENAI_BASE_URL (None: nothing listens there)."""
    tmp_path.mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("FORGE_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("FORGE_MODEL", "local:gemma-3-270m")
    monkeypatch.setenv("OPENAI_CONTEXT_WINDOW", "16384")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1" if server is None else "http://127.0.0.1:8080/v1")
    if server is not None:
        client = httpx.AsyncClient(transport=httpx.MockTransport(server))
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
    assert main(["migrate"]) == 0
    capsys.readouterr()
    code = main(["doctor"])
    return code, capsys.readouterr().out


def test_forge_doctor_exits_non_zero_when_nothing_listens_at_the_local_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, printed = _doctor_on(None, tmp_path, monkeypatch, capsys)
    assert code == 1, printed
    assert "✗ local server" in printed and "nothing answers at http://127.0.0.1:9/v1/models" in printed
    assert "\n1 problem(s) to fix." in printed  # that one only


def test_forge_doctor_exits_non_zero_when_the_local_model_calls_no_tool_and_zero_when_it_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prose = {"role": "assistant", "content": "The answer is 4."}
    code, printed = _doctor_on(_llama_cpp_python(prose), tmp_path / "a", monkeypatch, capsys)
    assert code == 1 and "✗ tool calls" in printed and "made no tool call in 3 tries" in printed, printed

    called = {"role": "assistant", "content": "", "tool_calls": [_CALL]}
    code, printed = _doctor_on(_llama_cpp_python(called), tmp_path / "b", monkeypatch, capsys)
    assert code == 0 and "✓ tool calls" in printed and "\nAll set." in printed, printed


_CALL = {"id": "call_1", "type": "function", "function": {"name": "record_answer", "arguments": '{"answer": "4"}'}}


def _ollama_idle(request: httpx.Request) -> httpx.Response:
    """Ollama with the model not loaded: `/api/show` gives only the trained length."""
    if request.url.path == "/v1/models":
        return httpx.Response(200, json={"object": "list", "data": [{"id": "qwen3:8b", "object": "model"}]})
    if request.url.path == "/api/show":
        return httpx.Response(200, json={"parameters": "", "model_info": {"qwen3.context_length": 40_960}})
    if request.url.path == "/api/ps":
        return httpx.Response(200, json={"models": []})
    return httpx.Response(404, text="404 page not found")


async def test_ollama_s_trained_length_is_a_warning_naming_ollama_context_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with httpx.AsyncClient(transport=httpx.MockTransport(_ollama_idle)) as client:
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
        url = await migrated_sqlite_url(tmp_path)
        settings = Settings(database_url=url, model="local:qwen3:8b", openai_base_url="http://127.0.0.1:11434/v1")
        window = _by_topic(await diagnose(settings))["context window"]

    assert window.ok and window.warning and window.value.startswith("40960 tokens")
    assert "OLLAMA_CONTEXT_LENGTH" in (window.fix or "") and "OPENAI_CONTEXT_WINDOW" in (window.fix or "")
