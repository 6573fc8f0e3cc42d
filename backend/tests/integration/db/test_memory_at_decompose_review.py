"""Memory at the decompose review, on SQLite and PostgreSQL: a second session on a related problem
opens with what the first one learned (its C-values), shows it on the decompose review, offers it to
the model, and carries only what the person pinned into later phases."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

import pytest
from integration.db import test_hypothesis_memory_across_sessions as across_sessions
from integration.db.test_hypothesis_memory_across_sessions import (
    BEDS,
    FIRST_PROBLEM,
    SECOND_PROBLEM,
    TRIAGE,
    _session_awaiting_verdicts,
    _submit,
)
from support.fixed_clock import FixedClock

from forge.bootstrap.container import Container
from forge.core.accounts.users import Role, User, UserId
from forge.core.domain_types import ReframingId, ReframingType, ReviewType, SessionId, VerdictType
from forge.core.hypotheses.confidence import INITIAL_C, contradicted, supported
from forge.core.hypotheses.remembered import MEMORY_HEADER, MemoryDecision
from forge.core.review.inputs import ClaimVerdictInput, DecomposeReview
from forge.core.review.payloads import build_review_payload
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption, Reframing, StateOfArt
from forge.services.session_service import ServiceFailure

UNRELATED = (
    "How do honey bee swarms choose a new nest site?",
    "How can a public library double its evening visitors without longer staff hours?",  # shares "staff", "hours"
)


container = across_sessions.container  # the same fixture: a fresh database and the idle model


async def _judged_first_session(container: Container) -> None:
    first = await _session_awaiting_verdicts(container, FIRST_PROBLEM, [TRIAGE, BEDS], 500)
    await _submit(
        container,
        first,
        ClaimVerdictInput(0, VerdictType.ACCEPT),
        ClaimVerdictInput(1, VerdictType.REJECT, reason="no"),
    )


async def _created(container: Container, problem: str) -> tuple[SessionId, ForgeState, str]:
    record = await container.service.create(problem)
    assert not isinstance(record, ServiceFailure)
    async with container.uow_factory() as uow:
        state = await uow.sessions.load_state(record.id)
        brief = (await uow.sessions.load_messages(record.id))[0].text
    return record.id, state, brief


async def _awaiting_decompose_review(container: Container, session_id: SessionId, state: ForgeState) -> None:
    done = replace(
        state,
        fundamentals=["arrival rate", "service time"],
        state_of_art=StateOfArt("Queues dominate.", ()),
        assumptions=[Assumption(f"assumption {i}") for i in range(3)],
        reframings=[
            Reframing(ReframingId(UUID(int=900 + i)), f"reframing {i}", ReframingType.SCOPE_CHANGE) for i in range(3)
        ],
    )
    done.await_review(ReviewType.DECOMPOSE_REVIEW)
    async with container.uow_factory() as uow:
        assert await uow.sessions.lock(session_id) is not None
        await uow.sessions.save_state(session_id, done, at=FixedClock().now())
        await uow.commit()


async def test_a_related_session_opens_with_what_the_first_learned_and_its_confidence(container: Container) -> None:
    await _judged_first_session(container)
    _, state, brief = await _created(container, SECOND_PROBLEM)

    by_text = {h.text: h for h in state.remembered_hypotheses}
    assert by_text[TRIAGE].c == pytest.approx(supported(INITIAL_C))
    assert by_text[TRIAGE].support_count == 1 and by_text[TRIAGE].origin_question == FIRST_PROBLEM
    assert state.remembered_hypotheses[0].text == TRIAGE  # similarity × C: the supported one first
    if BEDS in by_text:  # it started at 0.35 (§10.3): related (0.53) to the triage hypothesis judged before it
        assert by_text[BEDS].c == pytest.approx(contradicted(0.35)) and by_text[BEDS].contradiction_count == 1
    assert all(h.decision == MemoryDecision.OFFERED for h in state.remembered_hypotheses)

    assert MEMORY_HEADER in brief and TRIAGE in brief
    assert f"confidence: {round(100 * supported(INITIAL_C))}%" in brief
    assert f'Originally from "{FIRST_PROBLEM}"' in brief

    payload = build_review_payload(state, ReviewType.DECOMPOSE_REVIEW)
    shown = payload["memory"][0]
    assert shown["text"] == TRIAGE and shown["confidence_percent"] == round(100 * supported(INITIAL_C))
    assert shown["decision"] == "offered" and shown["origin_session_id"]


@pytest.mark.parametrize("problem", UNRELATED)
async def test_an_unrelated_problem_is_offered_nothing(container: Container, problem: str) -> None:
    await _judged_first_session(container)
    _, state, brief = await _created(container, problem)
    assert state.remembered_hypotheses == []
    assert MEMORY_HEADER not in brief


async def test_a_pinned_hypothesis_reaches_the_next_brief_and_a_dismissed_one_never_does(container: Container) -> None:
    await _judged_first_session(container)
    session_id, state, _ = await _created(container, SECOND_PROBLEM)
    offered = {h.text: h.episode_id for h in state.remembered_hypotheses}
    assert BEDS in offered, "both judged hypotheses are related to the second problem"
    await _awaiting_decompose_review(container, session_id, state)

    review = DecomposeReview((0,), accepted_memories=(offered[TRIAGE],), dismissed_memories=(offered[BEDS],))
    result = await container.service.submit_review(session_id, review)
    assert not isinstance(result, ServiceFailure), result
    async with container.uow_factory() as uow:
        after = await uow.sessions.load_state(session_id)
        explore_brief = (await uow.sessions.load_messages(session_id))[-1].text
    decisions = {h.text: h.decision for h in after.remembered_hypotheses}
    assert decisions == {TRIAGE: MemoryDecision.ACCEPTED, BEDS: MemoryDecision.DISMISSED}
    assert explore_brief.startswith("[forge phase=explore")
    assert TRIAGE in explore_brief and "pinned by your reviewer" in explore_brief
    assert BEDS not in explore_brief


async def test_a_review_naming_an_unknown_memory_is_refused_and_changes_nothing(container: Container) -> None:
    await _judged_first_session(container)
    session_id, state, _ = await _created(container, SECOND_PROBLEM)
    await _awaiting_decompose_review(container, session_id, state)
    refused = await container.service.submit_review(session_id, DecomposeReview((0,), accepted_memories=("nope",)))
    assert isinstance(refused, ServiceFailure) and "unknown ids" in refused.message
    async with container.uow_factory() as uow:
        unchanged = await uow.sessions.load_state(session_id)
    assert unchanged.awaiting_input_type == ReviewType.DECOMPOSE_REVIEW
    assert all(h.decision == MemoryDecision.OFFERED for h in unchanged.remembered_hypotheses)


async def test_another_persons_memory_is_never_offered(container: Container) -> None:
    await _judged_first_session(container)  # judged by the built-in local user
    other = User(UserId(UUID(int=77)), "grace@example.org", Role.MEMBER, FixedClock().now())
    async with container.uow_factory() as uow:
        await uow.accounts.add_user(other, None)
        await uow.commit()
    record = await container.service.create(SECOND_PROBLEM, owner=other.id)
    assert not isinstance(record, ServiceFailure)
    async with container.uow_factory() as uow:
        state = await uow.sessions.load_state(record.id)
        brief = (await uow.sessions.load_messages(record.id))[0].text
    assert state.remembered_hypotheses == [] and MEMORY_HEADER not in brief
    _, mine, _ = await _created(container, SECOND_PROBLEM)  # the local user still gets their own
    assert TRIAGE in {h.text for h in mine.remembered_hypotheses}
