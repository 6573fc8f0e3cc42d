"""Hypothesis memory is per person (SQLite and PostgreSQL): one user's verdicts build and move only
their own remembered hypotheses; another user's identical claim starts an episode of its own, and
the memory API lists each user's only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import UUID

import pytest
from support.accounts import AuthApp, Member, auth_app
from support.fixed_clock import FixedClock

from forge.core.domain_types import ClaimId, ClaimType, Phase, ReviewType, SessionId, VerdictType
from forge.core.hypotheses.confidence import INITIAL_C, supported
from forge.core.review.inputs import ClaimVerdictInput, VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores
from forge.services.service_results import ServiceFailure

TRIAGE = "Triage by urgency at the emergency door cuts wait times for the sickest patients"
PROBLEM = "How can a hospital cut emergency department wait times?"


@pytest.fixture
async def forge(migrated_database_url: str) -> AsyncIterator[AuthApp]:
    async with auth_app(migrated_database_url, offline_step_delay_ms=60_000) as app:  # BUILD never gets far
        yield app


def _awaiting_verdict(first_id: int) -> ForgeState:
    claim = Claim(
        ClaimId(UUID(int=first_id)),
        TRIAGE,
        ClaimType.SYNTHESIS,
        0,
        Phase.SYNTHESIZE,
        scores=ClaimScores(0.8, 0.8, 0.8, 0.8),
        synthesized=True,
    )
    state = ForgeState(problem=PROBLEM, current_phase=Phase.VALIDATE, current_round_claims=[claim])
    state.falsification_attempted = {0}
    state.novelty_checked = {0}
    state.await_review(ReviewType.VERDICTS)
    return state


async def _accept_triage(forge: AuthApp, who: Member, first_id: int) -> None:
    record = await forge.container.service.create(PROBLEM, owner=who.user.id)
    assert not isinstance(record, ServiceFailure)
    async with forge.container.uow_factory() as uow:
        assert await uow.sessions.lock(record.id) is not None
        await uow.sessions.save_state(record.id, _awaiting_verdict(first_id), at=FixedClock().now())
        await uow.commit()
    review = VerdictsReview((ClaimVerdictInput(0, VerdictType.ACCEPT),))
    assert not isinstance(await forge.container.service.submit_review(SessionId(record.id), review), ServiceFailure)


async def test_each_user_remembers_and_sees_only_their_own_verdicts(forge: AuthApp) -> None:
    ada, bob = await forge.member("ada@example.org"), await forge.member("bob@example.org")
    await _accept_triage(forge, ada, 100)
    async with forge.client(headers=bob.headers) as http:
        assert (await http.get("/api/v1/memory/hypotheses", params={"min_c": 0})).json()["total"] == 0
    await _accept_triage(forge, bob, 200)
    seen = {}
    for who in (ada, bob):
        async with forge.client(headers=who.headers) as http:
            page = (await http.get("/api/v1/memory/hypotheses", params={"q": TRIAGE, "min_c": 0})).json()
        assert page["total"] == 1 and page["items"][0]["text"] == TRIAGE
        seen[who.user.email] = page["items"][0]
    # bob's identical claim did not move ada's C: each has one support from their own verdict
    assert seen["ada@example.org"]["id"] != seen["bob@example.org"]["id"]
    for item in seen.values():
        assert item["confidence"] == pytest.approx(supported(INITIAL_C)) and item["support_count"] == 1
