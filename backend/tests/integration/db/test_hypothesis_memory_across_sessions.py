"""Hypothesis memory across sessions, on SQLite and PostgreSQL: verdicts of one session become
remembered hypotheses with C-values that a second session on a related problem retrieves and moves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import ClaimId, ClaimType, Phase, ReviewType, SessionId, VerdictType
from forge.core.hypotheses.confidence import (
    INITIAL_C,
    MemoryOutcome,
    contradicted,
    refined_child,
    refined_parent,
    supported,
)
from forge.core.hypotheses.memory import HypothesisEpisode
from forge.core.hypotheses.remembered import RECALL_MIN_SIMILARITY
from forge.core.hypotheses.similarity_confidence import conflicted, mutually_supported, query_matched
from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.core.review.inputs import ClaimVerdictInput, VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores
from forge.services.service_results import FailureKind
from forge.services.session_service import ServiceFailure

FIRST_PROBLEM = "How can a hospital cut emergency department wait times?"
SECOND_PROBLEM = "How can an emergency clinic cut patient wait times?"
TRIAGE = "Triage by urgency at the emergency door cuts wait times for the sickest patients"
BEDS = "Adding beds alone cuts emergency wait times"
STAFF = "Flexible staffing shifts follow the arrival curve of patients"


class IdleModel:
    """The BUILD phase a verdicts review opens waits here until the container closes."""

    @property
    def label(self) -> str:
        return "idle model"

    @property
    def context_window(self) -> int:
        return 1000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def _awaiting_verdicts(problem: str, texts: list[str], first_id: int) -> ForgeState:
    claims = [
        Claim(
            ClaimId(UUID(int=first_id + i)),
            text,
            ClaimType.SYNTHESIS,
            0,
            Phase.SYNTHESIZE,
            scores=ClaimScores(0.8, 0.8, 0.8, 0.8),
            synthesized=True,
        )
        for i, text in enumerate(texts)
    ]
    state = ForgeState(problem=problem, current_phase=Phase.VALIDATE, current_round_claims=claims)
    state.falsification_attempted = set(range(len(claims)))
    state.novelty_checked = set(range(len(claims)))
    state.await_review(ReviewType.VERDICTS)
    return state


async def _session_awaiting_verdicts(container: Container, problem: str, texts: list[str], first_id: int) -> SessionId:
    record = await container.service.create(problem)
    assert not isinstance(record, ServiceFailure)
    async with container.uow_factory() as uow:
        assert await uow.sessions.lock(record.id) is not None
        await uow.sessions.save_state(record.id, _awaiting_verdicts(problem, texts, first_id), at=FixedClock().now())
        await uow.commit()
    return record.id


async def _submit(container: Container, session_id: SessionId, *verdicts: ClaimVerdictInput) -> None:
    result = await container.service.submit_review(session_id, VerdictsReview(verdicts))
    assert not isinstance(result, ServiceFailure), result


@pytest.fixture
async def container(migrated_database_url: str) -> Any:
    built = build_container(
        Settings(database_url=migrated_database_url),
        model=IdleModel(),
        research=MemoryResearch([]),
        clock=FixedClock(),
        new_id=CountingIds(),
    )
    yield built
    await built.close()


RULES: dict[MemoryOutcome, Callable[[float, float], float]] = {
    MemoryOutcome.SUPPORTED: lambda c, _: supported(c),
    MemoryOutcome.CONTRADICTED: lambda c, _: contradicted(c),
    MemoryOutcome.QUERY_MATCH: query_matched,
    MemoryOutcome.MUTUAL_SUPPORT: mutually_supported,
    MemoryOutcome.CONFLICT: conflicted,
}


def _follows_its_rules(episode: HypothesisEpisode) -> list[MemoryOutcome]:
    """Every logged change of C is its rule applied to the C before (with the similarity it logged)."""
    created, *changes = episode.usage_history
    assert created.outcome == MemoryOutcome.CREATED and created.c_before == created.c_after
    assert created.c_after in (0.15, INITIAL_C, 0.35, 0.4) and created.rule.startswith("§10.3")
    for u in changes:
        rule = RULES.get(u.outcome)
        if rule is not None:
            assert u.c_after == pytest.approx(rule(u.c_before, u.similarity or 0.0)), u
    assert [u.c_after for u in episode.usage_history][-1] == pytest.approx(episode.c)
    return [u.outcome for u in episode.usage_history]


async def test_a_second_session_retrieves_what_the_first_validated_with_its_c(container: Container) -> None:
    first = await _session_awaiting_verdicts(container, FIRST_PROBLEM, [TRIAGE, BEDS, STAFF], 500)
    await _submit(
        container,
        first,
        ClaimVerdictInput(0, VerdictType.ACCEPT),
        ClaimVerdictInput(1, VerdictType.REJECT, reason="beds without staff stay empty"),
        ClaimVerdictInput(2, VerdictType.QUALIFY, qualification="only where arrivals are predictable"),
    )
    memory = container.memory
    everything = await memory.search(container.uow_factory, "", min_c=0.0, limit=10, offset=0)
    by_text = {r.episode.text: r.episode for r in everything.items}
    assert by_text[TRIAGE].c == pytest.approx(supported(INITIAL_C))  # the first: nothing to be near
    assert _follows_its_rules(by_text[TRIAGE]) == [MemoryOutcome.CREATED, MemoryOutcome.SUPPORTED]
    assert _follows_its_rules(by_text[BEDS]) == [MemoryOutcome.CREATED, MemoryOutcome.CONTRADICTED]
    staff, child = by_text[STAFF], by_text[f"{STAFF} — only where arrivals are predictable"]
    assert staff.c == pytest.approx(refined_parent(staff.usage_history[0].c_after))
    assert child.c == pytest.approx(max(child.usage_history[0].c_after, refined_child(staff.c)))
    assert child.parent_ids == (staff.id,)

    found = await memory.search(container.uow_factory, SECOND_PROBLEM, min_c=0.2, limit=3, offset=0)
    top = found.items[0].episode
    assert top.text == TRIAGE and top.origin_question == FIRST_PROBLEM and top.support_count == 1
    assert found.total == 4  # all four have C ≥ 0.2 after one verdict each

    second = await _session_awaiting_verdicts(container, SECOND_PROBLEM, [TRIAGE, BEDS], 600)
    await _submit(container, second, ClaimVerdictInput(0, VerdictType.ACCEPT), ClaimVerdictInput(1, VerdictType.REJECT))
    again = await memory.search(container.uow_factory, "", min_c=0.0, limit=10, offset=0)
    by_text = {r.episode.text: r.episode for r in again.items}
    assert len(again.items) == 4, "the second session updated the remembered episodes, it did not copy them"
    # The second question retrieved the triage hypothesis (§10.2 query match), then its verdict landed.
    triage = _follows_its_rules(by_text[TRIAGE])
    assert triage == [
        MemoryOutcome.CREATED,
        MemoryOutcome.SUPPORTED,
        MemoryOutcome.QUERY_MATCH,
        MemoryOutcome.SUPPORTED,
    ]
    assert [u.session_id for u in by_text[TRIAGE].usage_history] == [first, first, second, second]
    assert _follows_its_rules(by_text[BEDS])[-1] == MemoryOutcome.CONTRADICTED
    assert by_text[BEDS].contradiction_count == 2


async def test_a_refused_review_leaves_memory_and_the_session_untouched(container: Container) -> None:
    session = await _session_awaiting_verdicts(container, FIRST_PROBLEM, [TRIAGE], 700)
    before = await container.service.state(session)
    for refused_verdicts in (
        (ClaimVerdictInput(0, VerdictType.ACCEPT), ClaimVerdictInput(0, VerdictType.QUALIFY)),  # qualify needs a text
        (ClaimVerdictInput(0, VerdictType.REJECT), ClaimVerdictInput(3, VerdictType.ACCEPT)),  # no claim 3
    ):
        refused = await container.service.submit_review(session, VerdictsReview(refused_verdicts))
        assert isinstance(refused, ServiceFailure)
        assert refused.kind == FailureKind.INVALID
    empty = await container.memory.search(container.uow_factory, "", min_c=0.0, limit=10, offset=0)
    assert empty.total == 0
    assert await container.service.state(session) == before  # the review was applied in place, then rolled back


async def test_a_near_identical_claim_in_the_same_session_is_the_same_hypothesis_and_adds_no_support(
    container: Container,
) -> None:
    session = await _session_awaiting_verdicts(container, FIRST_PROBLEM, [TRIAGE, f"{TRIAGE}.", STAFF], 800)
    await _submit(container, session, *(ClaimVerdictInput(i, VerdictType.ACCEPT) for i in range(3)))
    everything = await container.memory.search(container.uow_factory, "", min_c=0.0, limit=10, offset=0)
    by_text = {r.episode.text: r.episode for r in everything.items}
    assert set(by_text) == {TRIAGE, STAFF}, "the claim with a full stop (cosine > 0.98) is the same hypothesis"
    triage = by_text[TRIAGE]
    assert _follows_its_rules(triage) == [MemoryOutcome.CREATED, MemoryOutcome.SUPPORTED, MemoryOutcome.REPEATED]
    assert triage.c == pytest.approx(supported(INITIAL_C)) and triage.support_count == 1


TRIAGED = "Patients triaged by urgency wait less for care"
FAST_TRACK = "Emergency wait times drop with a fast-track lane for minor injuries"


async def test_recall_ranks_by_the_fused_relevance_the_corpus_uses_and_gates_and_reports_by_cosine(
    container: Container,
) -> None:
    """Equal C, nearly equal meaning: the hypothesis sharing the problem's words comes first, though
    its cosine is a little lower; the offer still carries (and is gated by) the cosine."""
    session = await _session_awaiting_verdicts(container, "How do clinics shorten queues?", [TRIAGED, FAST_TRACK], 900)
    await _submit(
        container, session, ClaimVerdictInput(0, VerdictType.ACCEPT), ClaimVerdictInput(1, VerdictType.ACCEPT)
    )
    found = await container.memory.search(container.uow_factory, FIRST_PROBLEM, min_c=0.0, limit=10, offset=0)
    by_text = {r.episode.text: r for r in found.items}
    triaged, fast_track = by_text[TRIAGED], by_text[FAST_TRACK]
    assert triaged.episode.c == fast_track.episode.c
    assert triaged.similarity > fast_track.similarity, "by cosine × C the triage hypothesis would come first"
    assert [r.episode.text for r in found.items] == [FAST_TRACK, TRIAGED]

    offered = await container.memory.recall(container.uow_factory, FIRST_PROBLEM)
    assert [h.text for h in offered] == [FAST_TRACK, TRIAGED]
    assert [h.similarity for h in offered] == [round(fast_track.similarity, 4), round(triaged.similarity, 4)]
    assert all(h.similarity >= RECALL_MIN_SIMILARITY for h in offered)
