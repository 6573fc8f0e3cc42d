"""Prompt regression harness: what a whole session sends each provider's SDK, compared with snapshots.

Any change to the system prompt, a tool, a brief, a tool result or the request parameters shows up
as a diff of `tests/agent/prompt_snapshots/` in review. After an intended change, update them:

    cd backend && FORGE_UPDATE_PROMPT_SNAPSHOTS=1 .venv/bin/python -m pytest -q -p no:cacheprovider \\
        tests/agent/test_prompt_snapshots.py        # or: make prompt-snapshots

and commit the changed files. The invariants below hold whatever the snapshots say.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.prompt_session import FEEDBACK, QUALIFICATION, SUGGESTED_DOMAIN, SentRequest, record_prompt_session
from support.prompt_snapshots import (
    anthropic_bodies,
    briefs_of,
    build_snapshot,
    openai_bodies,
    readable_prompts,
)
from support.scripted_search import FRAME, parent

from forge.core.frame.problem_frame import ProblemFrame
from forge.engine.explore.biso import biso_request
from forge.engine.verify.score_hypotheses import ScoreBatch, score_request
from forge.knowledge.load_knowledge import load_shipped_knowledge

SNAPSHOTS = Path(__file__).parent / "prompt_snapshots"
UPDATE = os.environ.get("FORGE_UPDATE_PROMPT_SNAPSHOTS") == "1"
PERSON_ONLY_TOOLS = {"submit_user_insight"}


async def _snapshots() -> dict[str, dict[str, Any]]:
    sent: list[SentRequest] = await record_prompt_session()
    return {
        "anthropic": build_snapshot("anthropic", sent, await anthropic_bodies(sent)),
        "openai": build_snapshot("openai", sent, await openai_bodies(sent)),
    }


@pytest.fixture(scope="module")
def snapshots() -> dict[str, dict[str, Any]]:
    return asyncio.run(_snapshots())


def _compare_or_update(path: Path, text: str) -> None:
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing: run with FORGE_UPDATE_PROMPT_SNAPSHOTS=1"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.name} differs from what the session sends now; review the change, then update the "
        "snapshots with FORGE_UPDATE_PROMPT_SNAPSHOTS=1 (see this module's docstring)"
    )


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_request_bodies_match_the_snapshot(snapshots: dict[str, dict[str, Any]], provider: str) -> None:
    text = json.dumps(snapshots[provider], ensure_ascii=False, indent=1) + "\n"
    _compare_or_update(SNAPSHOTS / f"{provider}_session.json", text)


def test_readable_prompts_match_the_snapshot(snapshots: dict[str, dict[str, Any]]) -> None:
    _compare_or_update(SNAPSHOTS / "prompts.md", readable_prompts(snapshots["anthropic"]) + "\n")


def test_the_biso_request_matches_the_snapshot() -> None:
    """The engine's BISO request for the session's problem and its first chosen domain: instructions
    (with the decline rule and the worked example), input and output schema."""
    problem = "How can a hospital cut emergency wait times without more staff?"
    frame = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
    request = biso_request(problem, frame, load_shipped_knowledge().domains[0], 3)
    schema = json.dumps(request.output.model_json_schema(), ensure_ascii=False, indent=1)
    text = f"# {request.name}\n\n{request.purpose}\n\n## instructions\n\n{request.instructions}\n\n## input\n\n"
    _compare_or_update(SNAPSHOTS / "biso_request.md", f"{text}{request.input}\n\n## output schema\n\n{schema}\n")


def test_the_hypothesis_scoring_request_matches_the_snapshot() -> None:
    """The verifier's scoring request over two pool hypotheses: the five anchored dimensions, the
    frame, each hypothesis's material by id, and the schema with every reason before its number."""
    hypotheses = (parent("h1", "queue buffer", "waits per hour"), parent("h2", "feedback loop", "share of patients"))
    request = score_request(
        ScoreBatch("How can a hospital cut emergency wait times without more staff?", FRAME, hypotheses)
    )
    schema = json.dumps(request.output.model_json_schema(), ensure_ascii=False, indent=1)
    text = f"# {request.name}\n\n{request.purpose}\n\n## instructions\n\n{request.instructions}\n\n## input\n\n"
    _compare_or_update(SNAPSHOTS / "score_request.md", f"{text}{request.input}\n\n## output schema\n\n{schema}\n")
    assert _undescribed_fields(request.output.model_json_schema(), "score_hypotheses") == []


def _undescribed_fields(schema: dict[str, Any], path: str) -> list[str]:
    defs = schema.get("$defs", {})
    missing: list[str] = []

    def walk(node: dict[str, Any], where: str) -> None:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        for name, field in node.get("properties", {}).items():
            target = defs[field["$ref"].rsplit("/", 1)[-1]] if "$ref" in field else field
            if "description" not in field and "description" not in target:
                missing.append(f"{where}.{name}")
            walk(target, f"{where}.{name}")
            if "items" in target:
                walk(target["items"], f"{where}.{name}[]")

    walk(schema, path)
    return missing


def test_every_tool_and_field_is_described(snapshots: dict[str, dict[str, Any]]) -> None:
    missing: list[str] = []
    for tool in snapshots["anthropic"]["tools"]:
        if "input_schema" in tool:
            assert len(tool["description"]) >= 120, f"{tool['name']}: describe when to use it and when not"
            missing += _undescribed_fields(tool["input_schema"], tool["name"])
    assert missing == []


def test_no_person_only_tool_is_offered(snapshots: dict[str, dict[str, Any]]) -> None:
    for provider, snapshot in snapshots.items():
        names = {t.get("name") or t["function"]["name"] for t in snapshot["tools"]}
        assert names & PERSON_ONLY_TOOLS == set(), provider


def test_the_persons_decisions_reach_later_briefs(snapshots: dict[str, dict[str, Any]]) -> None:
    briefs = briefs_of(snapshots["anthropic"])
    after_verdicts = [b for b in briefs if b.startswith(("[forge phase=build", "[forge phase=synthesize round=2"))]
    assert after_verdicts and all(QUALIFICATION in b for b in after_verdicts)
    assert any(FEEDBACK in b for b in briefs)
    assert any(SUGGESTED_DOMAIN in b for b in briefs if b.startswith("[forge phase=synthesize"))
    assert all("override" in b for b in briefs[1:])


def test_the_language_rule_is_in_the_system_prompt(snapshots: dict[str, dict[str, Any]]) -> None:
    system = "\n".join(block["text"] for block in snapshots["anthropic"]["system"])
    assert "language of the problem" in system
