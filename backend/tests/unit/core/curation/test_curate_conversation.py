"""Curating a conversation: must-keep parts stay, earlier briefs become digests that keep the reviewer's
decisions, tool calls stay next to their results, every unit has provenance, and the real tokenizer's
count of what is sent stays within the budget."""

from __future__ import annotations

import random

from support.conversations import COUNT, DECIDED, TOPICS, brief, exchange, marker, session

from forge.core.curation.curate_conversation import (
    DIGEST_NOTE,
    CuratedContext,
    Outcome,
    UnitKind,
    curate_conversation,
    message_text,
    pairing_intact,
)
from forge.core.curation.listwise_selection import CurationBudget, Reason
from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult, user_text


def _tokens(messages: tuple[Message, ...]) -> int:
    return sum(COUNT(message_text(m)) + 4 for m in messages)


class TestCurateConversation:
    def test_over_many_sessions_pairing_holds_must_keep_stays_and_the_budget_holds_by_the_real_count(self) -> None:
        for seed in range(60):
            rng = random.Random(seed)
            messages = session(rng, rng.randint(1, 7))
            budget = CurationBudget(context_tokens=rng.randint(2_000, 9_000), carry_tokens=rng.randint(0, 2_500))
            curated = curate_conversation(
                messages, current_marker=marker(messages), fixed_tokens=900, count=COUNT, budget=budget
            )
            sent, summary = curated.messages, curated.summary
            assert pairing_intact(sent) and not summary.fell_back, seed
            current = messages.index(next(m for m in messages if m.text.startswith(marker(messages))))
            assert sent[-(len(messages) - current) :] == tuple(messages[current:]), seed  # the current phase, whole
            assert sent[0] == messages[0]
            assert summary.tokens_sent == 900 + _tokens(sent), seed
            if summary.must_keep_tokens <= budget.context_tokens:
                assert summary.tokens_sent <= budget.context_tokens, seed
            finished = sum(1 for u in summary.units if u.kind == UnitKind.PHASE_BOUNDARY) + 1
            assert summary.optional_tokens <= budget.carry_tokens * finished, seed
            for phase in {u.phase for u in summary.units if u.kind != UnitKind.CURRENT_PHASE}:
                picked = [u for u in summary.units if u.phase == phase and u.reason == Reason.SELECTED]
                assert sum(u.tokens_sent for u in picked if u.outcome == Outcome.FULL) <= budget.carry_tokens + sum(
                    u.tokens_sent for u in picked if u.kind == UnitKind.PHASE_BOUNDARY
                ), seed

    def test_what_a_finished_phase_contributes_never_changes_as_the_conversation_grows(self) -> None:
        for seed in range(30):
            rng = random.Random(seed)
            messages = session(rng, rng.randint(2, 6))
            budget = CurationBudget(context_tokens=100_000, carry_tokens=rng.randint(0, 1_500))
            curated = curate_conversation(
                messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
            )
            before = curated.messages
            grown = [*messages, *exchange("more", TOPICS[0], 5)]  # the current phase goes on
            grown += [Message(Role.ASSISTANT, (TextPart("Done."),)), brief("validate", 9, TOPICS[1], decided=True)]
            after = curate_conversation(
                grown, current_marker=marker(grown), fixed_tokens=0, count=COUNT, budget=budget
            ).messages
            current = next(u.first_message for u in curated.summary.units if u.kind == UnitKind.CURRENT_PHASE)
            kept_before_current = len(before) - (len(messages) - current)
            assert kept_before_current > 0
            assert after[:kept_before_current] == before[:kept_before_current], seed  # a stable, cacheable prefix

    def test_every_unit_has_provenance_and_together_they_cover_every_message_once(self) -> None:
        messages = session(random.Random(7), 5)
        curated = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=CurationBudget(4_000, 200)
        )
        covered = [i for u in curated.summary.units for i in range(u.first_message, u.last_message + 1)]
        assert covered == list(range(len(messages)))
        for unit in curated.summary.units:
            assert unit.tokens_sent in (unit.tokens_full, 0) or unit.outcome == Outcome.DIGEST
            if unit.kind in (UnitKind.HEAD, UnitKind.CURRENT_PHASE):
                assert (unit.outcome, unit.reason) == (Outcome.FULL, Reason.MUST_KEEP)
        assert {u.outcome for u in curated.summary.units} >= {Outcome.DROPPED, Outcome.DIGEST}

    def test_an_earlier_brief_left_out_is_sent_as_a_digest_with_the_reviewers_decisions(self) -> None:
        messages = session(random.Random(3), 4)
        curated = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=CurationBudget(50_000, 0)
        )
        briefs = [m.text for m in curated.messages if m.text.startswith("[forge phase=")]
        digests = [b for b in briefs if DIGEST_NOTE in b]
        assert len(digests) == len(briefs) - 2  # all but the first brief and the current one
        assert all(DECIDED in b and "```json" not in b for b in digests)

    def test_with_room_for_everything_nothing_relevant_is_dropped(self) -> None:
        messages = session(random.Random(11), 3)
        budget = CurationBudget(
            context_tokens=1_000_000, carry_tokens=1_000_000, lambda_tokens=0.0, redundancy_weight=0.0
        )
        curated = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
        )
        dropped = [u for u in curated.summary.units if u.outcome != Outcome.FULL]
        assert all(u.relevance == 0.0 for u in dropped)

    def test_a_conversation_that_does_not_alternate_is_sent_whole_and_flagged(self) -> None:
        messages = [
            user_text("[forge phase=explore round=1]\nGOAL: x"),
            user_text("stray"),
            Message(Role.ASSISTANT, (TextPart("ok"),)),
            user_text("[forge phase=build round=1]\nGOAL: y"),
        ]
        curated = curate_conversation(
            messages,
            current_marker="[forge phase=build round=1]",
            fixed_tokens=0,
            count=COUNT,
            budget=CurationBudget(10, 0),
        )
        assert curated.messages == tuple(messages)
        assert curated.summary.fell_back


class TestPairingIntact:
    def test_a_tool_call_without_its_result_in_the_next_message_breaks_pairing(self) -> None:
        ask = Message(Role.ASSISTANT, (ToolCall(ToolCallId("a"), "research", {}),))
        other = Message(Role.USER, (ToolResult(ToolCallId("b"), "x"),))
        assert not pairing_intact([user_text("go"), ask, other])
        assert pairing_intact([user_text("go"), ask, Message(Role.USER, (ToolResult(ToolCallId("a"), "x"),))])


def test_message_text_is_built_once_per_message_and_per_content() -> None:
    call = Message(Role.ASSISTANT, (TextPart("Looking."), ToolCall(ToolCallId("c1"), "search", {"q": "heat"})))
    first = message_text(call)
    assert message_text(call) is first  # the same string: its hash is computed once
    same_content = Message(Role.ASSISTANT, (TextPart("Looking."), ToolCall(ToolCallId("c1"), "search", {"q": "heat"})))
    other = Message(Role.ASSISTANT, (TextPart("Looking."), ToolCall(ToolCallId("c1"), "search", {"q": "cold"})))
    assert message_text(same_content) == first
    assert message_text(other) == 'Looking.\nsearch {"q": "cold"}'


class TestDeferredCompaction:
    """Compaction waits until it frees `compact_at_least` tokens: a provider's prompt cache is rewritten
    from the first unit a compaction shortens, so shortening a little at every phase change costs more."""

    @staticmethod
    def _phases(sizes: list[int]) -> list[Message]:
        names = ["decompose", "explore", "synthesize", "validate", "build"]
        messages = [brief(names[0], 1, "cut emergency waiting without more staff", decided=False)]
        for n, size in enumerate(sizes):
            messages += exchange(f"{n}", TOPICS[2], size)  # off-topic: the selection drops it
            messages += [
                Message(Role.ASSISTANT, (TextPart(f"Phase {n} done."),)),
                brief(names[n + 1], 1, TOPICS[0], False),
            ]
        return messages

    def test_a_finished_phase_freeing_too_little_is_sent_whole_and_settled_ends_before_it(self) -> None:
        messages = self._phases([300])
        budget = CurationBudget(context_tokens=100_000, carry_tokens=10, compact_at_least=4_000)
        curated = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
        )
        assert curated.messages == tuple(messages)
        assert [u.reason for u in curated.summary.units if u.kind == UnitKind.EXCHANGE] == [Reason.DEFERRED]
        assert curated.settled == 1  # the head; the deferred phase may still be compacted
        eager = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=CurationBudget(100_000, 10)
        )
        assert len(eager.messages) < len(messages) and eager.settled == len(eager.messages) - 2

    def test_once_the_deferred_phases_together_free_enough_they_are_compacted_at_once(self) -> None:
        budget = CurationBudget(context_tokens=100_000, carry_tokens=10, compact_at_least=4_000)
        two = self._phases([150, 150])
        kept_two = curate_conversation(two, current_marker=marker(two), fixed_tokens=0, count=COUNT, budget=budget)
        assert kept_two.messages == tuple(two)
        many = self._phases([150, 150, 150, 150])
        curated = curate_conversation(many, current_marker=marker(many), fixed_tokens=0, count=COUNT, budget=budget)
        reasons = [u.reason for u in curated.summary.units if u.kind == UnitKind.EXCHANGE]
        assert Reason.DEFERRED not in reasons[:3] and len(curated.messages) < len(many)
        assert pairing_intact(curated.messages) and curated.settled > 1

    def test_deferral_never_takes_the_call_over_its_budget(self) -> None:
        messages = self._phases([300, 300])
        whole = _tokens(tuple(messages))
        budget = CurationBudget(context_tokens=whole - 50, carry_tokens=10, compact_at_least=100_000)
        curated = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
        )
        assert Reason.DEFERRED not in {u.reason for u in curated.summary.units}
        assert curated.summary.tokens_sent <= budget.context_tokens

    def test_a_phase_that_sent_its_own_context_is_compacted_at_once_the_others_still_wait(self) -> None:
        """Its calls never sent the main conversation, so no cache holds its segment there: kept whole it
        would be written once now and again at its compaction."""
        messages = self._phases([300, 300])  # decompose, then explore, now synthesize
        budget = CurationBudget(context_tokens=100_000, carry_tokens=10, compact_at_least=10_000)
        waiting = curate_conversation(
            messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
        )
        private = curate_conversation(
            messages,
            current_marker=marker(messages),
            fixed_tokens=0,
            count=COUNT,
            budget=budget,
            own_context=frozenset({"explore"}),
        )
        reasons = {u.phase: u.reason for u in waiting.summary.units if u.kind == UnitKind.EXCHANGE}
        assert reasons == {"decompose/1": Reason.DEFERRED, "explore/1": Reason.DEFERRED}
        reasons = {u.phase: u.reason for u in private.summary.units if u.kind == UnitKind.EXCHANGE}
        assert reasons["decompose/1"] == Reason.DEFERRED and reasons["explore/1"] != Reason.DEFERRED
        assert len(private.messages) < len(messages) and pairing_intact(private.messages)

    def test_a_phases_first_call_names_where_the_calls_before_it_had_settled(self) -> None:
        budget = CurationBudget(context_tokens=100_000, carry_tokens=10, compact_at_least=4_000)
        now = self._phases([150, 150, 150, 150])  # the fourth finished phase makes the deferred ones compact
        before = now[:-2]  # the last call of the phase before: up to its last tool result

        def curate(messages: list[Message]) -> CuratedContext:
            return curate_conversation(
                messages, current_marker=marker(messages), fixed_tokens=0, count=COUNT, budget=budget
            )

        earlier, first = curate(before), curate(now)
        assert earlier.settled == earlier.settled_before == 1  # everything deferred: the head is settled
        assert first.settled > first.settled_before == earlier.settled  # the compaction moved it on
        assert first.messages[: first.settled_before] == earlier.messages[: earlier.settled]
        going_on = curate([*now, *exchange("next", TOPICS[0], 5)])  # the phase's second call
        assert going_on.settled_before == going_on.settled == first.settled
