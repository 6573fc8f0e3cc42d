"""FORGE_EFFORT: one level, or scope=level pairs over the defaults; anything else refused."""

from __future__ import annotations

import pytest

from forge.core.llm.effort import AGENT_EFFORT, ENGINE_EFFORT, parse_effort
from forge.core.llm.messages import Message, ProviderPart, Role, TextPart


def test_defaults_are_one_level_for_every_phase_and_one_for_the_engine() -> None:
    policy = parse_effort("")
    assert {policy.level_for(p) for p in ("decompose", "synthesize", "crystallize")} == {AGENT_EFFORT}
    assert policy.level_for("engine") == ENGINE_EFFORT


def test_one_level_applies_everywhere_and_pairs_override_scopes() -> None:
    assert parse_effort("max").level_for("engine") == "max"
    policy = parse_effort("synthesize=xhigh, engine=low, *=medium")
    assert (policy.level_for("synthesize"), policy.level_for("engine"), policy.level_for("build")) == (
        "xhigh",
        "low",
        "medium",
    )


@pytest.mark.parametrize(("text", "names"), [("turbo", "not one of"), ("thinking=high", "unknown scope")])
def test_an_unknown_level_or_scope_is_refused_with_what_is_accepted(text: str, names: str) -> None:
    with pytest.raises(ValueError, match=names):
        parse_effort(text)


def test_shown_text_adds_the_notes_of_thinking_blocks_to_the_answer_in_order() -> None:
    note = ProviderPart("anthropic", {"type": "thinking", "thinking": "Checking.", "signature": "s"}, "Checking.")
    message = Message(Role.ASSISTANT, (note, TextPart("Answer.")))
    assert message.shown_text == "Checking.\n\nAnswer." and message.text == "Answer."
