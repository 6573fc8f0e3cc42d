"""Remembering finished phases' selections across calls never changes what a call carries."""

from __future__ import annotations

import random

from support.conversations import COUNT, TOPICS, brief, marker, session

from forge.core.curation.curate_conversation import CuratedContext, curate_conversation
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.curation.segment_memo import SegmentMemo
from forge.core.llm.messages import Message, Role


def _curate(messages: list[Message], budget: CurationBudget, memo: SegmentMemo | None = None) -> CuratedContext:
    return curate_conversation(
        messages, current_marker=marker(messages), fixed_tokens=300, count=COUNT, budget=budget, memo=memo
    )


def _calls(messages: list[Message]) -> list[list[Message]]:
    """The conversation as each model call of its run saw it: up to each assistant message."""
    return [messages[:i] for i, m in enumerate(messages) if m.role == Role.ASSISTANT and i > 0]


def test_a_run_curated_with_a_memo_sends_what_it_sends_without_one() -> None:
    for seed in range(25):
        rng = random.Random(seed)
        messages = session(rng, rng.randint(2, 6))
        budget = CurationBudget(context_tokens=rng.randint(2_000, 40_000), carry_tokens=rng.randint(0, 1_500))
        memo = SegmentMemo()
        for seen in _calls(messages):
            assert _curate(seen, budget, memo) == _curate(seen, budget), seed


def test_a_second_call_on_the_same_conversation_selects_nothing_again() -> None:
    messages = session(random.Random(4), 5)
    memo = SegmentMemo()
    budget = CurationBudget(context_tokens=20_000, carry_tokens=600)
    first = _curate(messages, budget, memo)
    entries = len(memo)
    assert entries > 0
    assert _curate(messages, budget, memo) == first
    assert len(memo) == entries
    other = CurationBudget(context_tokens=20_000, carry_tokens=300)
    assert _curate(messages, other, memo) == _curate(messages, other)  # another budget: selected anew
    assert len(memo) > entries


def test_the_same_finished_phases_under_another_brief_are_selected_for_thatbrief() -> None:
    differed = 0
    for seed in range(30):
        rng = random.Random(seed)
        messages = session(rng, rng.randint(2, 5))[:-1]  # without the current brief
        budget = CurationBudget(context_tokens=100_000, carry_tokens=rng.randint(50, 800))
        memo = SegmentMemo()
        results = []
        for topic in TOPICS[:2]:
            asked = [*messages, brief("build", 7, topic, decided=True)]
            with_memo = _curate(asked, budget, memo)
            assert with_memo == _curate(asked, budget), seed
            results.append(with_memo.messages)
        differed += results[0] != results[1]
    assert differed > 0  # the brief that follows a phase decides what of it is carried


def test_equal_but_distinct_messages_are_not_taken_for_the_remembered_ones() -> None:
    messages = session(random.Random(9), 4)
    memo = SegmentMemo()
    budget = CurationBudget(context_tokens=20_000, carry_tokens=400)
    _curate(messages, budget, memo)
    entries = len(memo)
    copies = [Message(m.role, m.parts) for m in messages]
    assert _curate(copies, budget, memo) == _curate(copies, budget)
    assert len(memo) == 2 * entries


def test_the_memo_forgets_its_oldest_entries_first() -> None:
    memo = SegmentMemo(entries=2)
    messages = session(random.Random(2), 4)
    for carry in (100, 200, 300):
        _curate(messages, CurationBudget(context_tokens=20_000, carry_tokens=carry), memo)
    assert len(memo) == 2


def test_a_phase_after_other_earlier_phases_is_selected_against_what_those_carried() -> None:
    from support.conversations import exchange

    def early(topic: str) -> list[Message]:
        return [brief("decompose", 1, topic, decided=False), *exchange(f"e-{topic}", topic, 40)]

    # The later phases are the very same message objects after either opening.
    tail = [Message(Role.ASSISTANT, ()), brief("explore", 1, TOPICS[2], True), *exchange("t1", TOPICS[2], 30)]
    tail += [*exchange("t2", TOPICS[3], 30), Message(Role.ASSISTANT, ()), brief("synthesize", 1, TOPICS[2], True)]
    tail += exchange("now", TOPICS[1], 3)
    differed = 0
    for carry in range(50, 1_500, 50):
        budget = CurationBudget(context_tokens=100_000, carry_tokens=carry)
        memo = SegmentMemo()
        results = []
        for topic in (TOPICS[2], TOPICS[0]):  # the same later phase, after an earlier phase on its topic or not
            asked = [*early(topic), *tail]
            with_memo = _curate(asked, budget, memo)
            assert with_memo == _curate(asked, budget), carry
            results.append(with_memo.messages[-len(tail) :])
        differed += results[0] != results[1]
    assert differed > 0
