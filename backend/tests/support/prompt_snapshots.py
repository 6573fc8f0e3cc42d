"""The exact request bodies a session sends through each provider's SDK, as reviewable snapshots.

Each request the recorded session made (`support.prompt_session`) is sent through the real SDK
(Anthropic's over httpx2.MockTransport, OpenAI's over httpx.MockTransport) by the adapter as
production builds it; the JSON body the SDK put on the wire is what gets snapshotted.

Snapshot shape (one JSON file per provider), chosen so a prompt change reads as a small diff:
    - `system` and `tools` once (the harness asserts every request sent the same ones: the stable
      prefix prompt caching needs);
    - per request: phase, round, the other parameters (model, max_tokens, ...), the messages new
      since the request before (compared without cache_control, whose markers move every call),
      and where this request put its cache_control markers. A request whose history is not an
      extension of the previous one (the context curator left earlier phases out or shortened
      them, at the first call of each phase; or a compaction) carries its whole history, flagged.
    - `prompts.md`: the system prompt, every tool and every phase brief as plain text, for reading.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import httpx
import httpx2
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi
from providers.anthropic.fake_anthropic_api import Sleeps as AnthropicSleeps
from providers.anthropic.fake_anthropic_api import build_model as build_anthropic
from providers.openai.fake_openai_api import FakeOpenAIApi, completion
from providers.openai.fake_openai_api import Sleeps as OpenAISleeps
from providers.openai.fake_openai_api import build_model as build_openai
from support.prompt_session import SentRequest

Body = dict[str, Any]
BRIEF_PREFIX = "[forge phase="


async def anthropic_bodies(sent: Sequence[SentRequest]) -> list[Body]:
    api = FakeAnthropicApi()
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as client:
        model = build_anthropic(api, client, AnthropicSleeps())
        for item in sent:
            api.json("text_reply.json")
            await model.complete(item.request)
    return api.bodies


async def openai_bodies(sent: Sequence[SentRequest]) -> list[Body]:
    api = FakeOpenAIApi()
    async with httpx.AsyncClient(transport=httpx.MockTransport(api)) as client:
        model = build_openai(client, OpenAISleeps())
        for item in sent:
            api.json(completion("Done."))
            await model.complete(item.request)
    return api.bodies


def _without_cache_control(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_without_cache_control(v) for v in value]
    return value


def _cache_marks(messages: Sequence[Body]) -> list[int]:
    return [i for i, m in enumerate(messages) if "cache_control" in json.dumps(m)]


def split_body(body: Body, provider: str) -> tuple[Any, Any, list[Body], Body]:
    """(system, tools, messages, other parameters) of one body, whatever the provider's layout."""
    rest = copy.deepcopy(body)
    messages = rest.pop("messages")
    tools = rest.pop("tools", [])
    system = rest.pop("system") if provider == "anthropic" else messages.pop(0)
    return system, tools, messages, rest


def build_snapshot(provider: str, sent: Sequence[SentRequest], bodies: Sequence[Body]) -> Body:
    system, tools, _, _ = split_body(bodies[0], provider)
    requests: list[Body] = []
    previous: list[Body] = []
    for item, body in zip(sent, bodies, strict=True):
        this_system, this_tools, messages, params = split_body(body, provider)
        same = (this_system, _without_cache_control(this_tools)) == (system, _without_cache_control(tools))
        assert same, "system and tools must not change within a session"  # breakpoints may move
        bare = _without_cache_control(messages)
        extends = bare[: len(previous)] == previous
        entry: Body = {"phase": item.phase, "round": item.round, "params": params}
        if not extends:
            entry["history_replaced"] = True
        entry["new_messages"] = messages[len(previous) :] if extends else messages
        entry["cache_marks"] = _cache_marks(messages)
        requests.append(entry)
        previous = bare
    return {"provider": provider, "system": system, "tools": tools, "requests": requests}


def _user_texts(snapshot: Body) -> list[tuple[str, int, str]]:
    """Each distinct brief text once, where it was first sent (a replaced history repeats earlier ones;
    a curated digest of an earlier brief is a text of its own)."""
    found: list[tuple[str, int, str]] = []
    seen: set[str] = set()
    for entry in snapshot["requests"]:
        for message in entry["new_messages"]:
            content = message["content"]
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            for block in blocks:
                text = block.get("text", "") if block.get("type") == "text" else ""
                if message["role"] == "user" and text.startswith(BRIEF_PREFIX) and text not in seen:
                    seen.add(text)
                    found.append((entry["phase"], entry["round"], text))
    return found


def briefs_of(snapshot: Body) -> list[str]:
    """Every phase brief the session sent, in order."""
    return [text for _, _, text in _user_texts(snapshot)]


def readable_prompts(snapshot: Body) -> str:
    """The Anthropic snapshot as plain text: system prompt, tools, briefs."""
    system = "\n".join(block["text"] for block in snapshot["system"])
    lines = ["# What the model reads (generated; see tests/agent/test_prompt_snapshots.py)", "", "## System prompt", ""]
    lines += ["```", system, "```", "", "## Tools", ""]
    for tool in snapshot["tools"]:
        if "input_schema" not in tool:
            lines += [f"### {tool['name']} (server tool: {tool['type']})", ""]
            continue
        lines += [f"### {tool['name']}", "", tool["description"], "", "```json"]
        lines += [json.dumps(tool["input_schema"], ensure_ascii=False, indent=1), "```", ""]
    lines += ["## Phase briefs", ""]
    for phase, round_, text in _user_texts(snapshot):
        lines += [f"### {phase}, round {round_}", "", "```", text, "```", ""]
    return "\n".join(lines)
