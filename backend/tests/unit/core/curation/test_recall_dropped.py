"""What the curator left out stays recallable: exactly the dropped and digested units, named in a one-line
note on the current brief, returned by id or by query within a token budget."""

from __future__ import annotations

import random

from forge.core.curation.curate_conversation import Outcome, curate_conversation
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.curation.recall_dropped import (
    NOTE_PREFIX,
    RecallItem,
    recall,
    recall_note,
    recallable_units,
    with_recall_note,
)
from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult, user_text
from forge.providers.token_counting import TiktokenCounter

COUNT = TiktokenCounter().count_tokens
BUDGET = CurationBudget(context_tokens=50_000, carry_tokens=200)
EXPLORE = "[forge phase=explore round=1]"


def _conversation(extra_topic: str = "honey bee colony foraging recruitment dance") -> list[Message]:
    call = ToolCall(ToolCallId("c1"), "research", {"query": "bees"})
    return [
        user_text("[forge phase=decompose round=1]\nGOAL: cut emergency waiting"),
        Message(Role.ASSISTANT, (call,)),
        Message(Role.USER, (ToolResult(ToolCallId("c1"), " ".join([extra_topic] * 80)),)),
        Message(Role.ASSISTANT, (TextPart("Decompose is done."),)),
        user_text(f"{EXPLORE}\nGOAL: emergency queue triage"),
    ]


def _curated(messages: list[Message]) -> tuple[dict[str, RecallItem], object]:
    curated = curate_conversation(messages, current_marker=EXPLORE, fixed_tokens=0, count=COUNT, budget=BUDGET)
    return recallable_units(messages, curated.summary), curated


class TestRecallable:
    def test_the_dropped_exchange_is_recallable_with_its_tool_result(self) -> None:
        items, _ = _curated(_conversation())
        assert list(items) == ["m1-2"]
        assert items["m1-2"].tools == ("research",) and "honey bee colony" in items["m1-2"].text

    def test_every_unit_not_sent_in_full_is_recallable_and_no_other(self) -> None:
        topics = ["emergency queue triage", "grid peak shaving", "bee dance", "air traffic slots"]
        for seed in range(40):
            rng = random.Random(seed)
            messages = [user_text("[forge phase=decompose round=1]\nGOAL: emergency waiting")]
            for n in range(rng.randint(1, 5)):
                call = ToolCall(ToolCallId(f"c{n}"), "research", {"query": "q"})
                text = " ".join([rng.choice(topics)] * rng.randint(1, 90))
                messages += [Message(Role.ASSISTANT, (call,)), Message(Role.USER, (ToolResult(call.id, text),))]
            messages += [Message(Role.ASSISTANT, (TextPart("done"),)), user_text(f"{EXPLORE}\nGOAL: queue")]
            items, curated = _curated(messages)
            summary = curated.summary  # type: ignore[attr-defined]
            assert set(items) == {u.key for u in summary.units if u.outcome != Outcome.FULL}, seed


class TestNote:
    def test_the_note_names_the_ids_on_one_line_and_goes_on_the_current_brief(self) -> None:
        messages = _conversation()
        items, curated = _curated(messages)
        note = recall_note(list(items.values()))
        assert note is not None and note.startswith(NOTE_PREFIX) and "\n" not in note
        assert "decompose/1: m1-2 research" in note
        sent = with_recall_note(curated.messages, EXPLORE, note)  # type: ignore[attr-defined]
        assert sent[-1].parts[-1] == TextPart(note) and sent[:-1] == curated.messages[:-1]  # type: ignore[attr-defined]

    def test_a_token_limit_lists_fewer_ids_and_counts_the_rest(self) -> None:
        items = [RecallItem(f"m{n}-{n + 1}", "synthesize/1", ("search_cross_domain",), "") for n in range(0, 120, 2)]
        note = recall_note(items, 120, COUNT)
        assert note is not None and COUNT(note) <= 120 and note.count("search_cross_domain") < len(items)
        assert f"and {len(items) - note.count('search_cross_domain')} more" in note

    def test_nothing_left_out_means_no_note_and_the_messages_unchanged(self) -> None:
        messages = [user_text(f"{EXPLORE}\nGOAL: x")]
        assert recall_note([]) is None
        assert with_recall_note(messages, EXPLORE, None) == tuple(messages)


class TestRecall:
    ITEMS = (
        RecallItem("m1-2", "decompose/1", ("research",), "honey bee colony foraging dance " * 40),
        RecallItem("m3-4", "explore/1", ("research",), "electric grid peak shaving demand response"),
    )

    def test_by_id_in_the_order_asked_and_unknown_ids_named(self) -> None:
        found = recall(self.ITEMS, ["m3-4", "m9-9", "m1-2"], "", 10_000, COUNT)
        assert [i.id for i in found.items] == ["m3-4", "m1-2"] and found.unknown_ids == ("m9-9",)

    def test_by_query_the_best_match_only(self) -> None:
        found = recall(self.ITEMS, [], "grid peak demand", 10_000, COUNT)
        assert [i.id for i in found.items] == ["m3-4"]

    def test_the_budget_is_never_exceeded_and_a_cut_item_is_marked(self) -> None:
        found = recall(self.ITEMS, ["m1-2", "m3-4"], "", 50, COUNT)
        assert found.shortened == ("m1-2",) and found.items[0].text.endswith("[cut to the recall budget]")
        assert sum(COUNT(i.text) for i in found.items) <= 50
        assert [i.id for i in found.items] == ["m1-2"]  # nothing left for the second one
