"""SessionService: the autopilot review is refused while the agent runs; constraints join the problem."""

from __future__ import annotations

import asyncio
from pathlib import Path
from uuid import UUID

import pytest
from support.fixed_clock import CountingIds, FixedClock
from support.fresh_database import migrated_sqlite_url
from support.memory_research import MemoryResearch

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.record import MAX_PROBLEM_CHARS
from forge.services.service_results import FailureKind, ServiceFailure
from forge.services.session_service import problem_with_constraints

PROBLEM = "How can a hospital cut emergency wait times?"


class BlockingModel:
    """A model whose call never returns until cancelled (a slow provider)."""

    def __init__(self) -> None:
        self.called = asyncio.Event()

    @property
    def label(self) -> str:
        return "blocking model"

    @property
    def context_window(self) -> int:
        return 1000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.called.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_autopilot_review_is_refused_while_the_agent_runs_and_changes_nothing(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    model = BlockingModel()
    container = build_container(
        Settings(embedder="hashed", database_url=url),
        model=model,
        research=MemoryResearch([]),
        clock=FixedClock(),
        new_id=CountingIds(),
    )
    try:
        service = container.service
        record = await service.create(PROBLEM)
        assert not isinstance(record, ServiceFailure)
        await service.start_run(record.id)
        await asyncio.wait_for(model.called.wait(), 2)
        before = await service.events(record.id, 0, 100)

        refused = await service.submit_autopilot_review(record.id, AutopilotPolicy())
        assert isinstance(refused, ServiceFailure) and refused.kind == FailureKind.CONFLICT
        assert "still running the DECOMPOSE phase" in refused.message
        assert await service.events(record.id, 0, 100) == before

        missing = await service.submit_autopilot_review(SessionId(UUID(int=999)), AutopilotPolicy())
        assert isinstance(missing, ServiceFailure) and missing.kind == FailureKind.NOT_FOUND
    finally:
        await container.close()


def test_constraints_are_appended_as_a_list_and_trimmed() -> None:
    text = problem_with_constraints(PROBLEM, ["  without more staff ", "budget\tstays   flat"])
    assert text == f"{PROBLEM}\n\nConstraints:\n- without more staff\n- budget stays flat"
    assert problem_with_constraints(PROBLEM, []) == PROBLEM


def test_a_blank_constraint_is_refused_by_position() -> None:
    failure = problem_with_constraints(PROBLEM, ["without more staff", "   "])
    assert isinstance(failure, ServiceFailure) and failure.kind == FailureKind.INVALID
    assert "constraints[1] is blank" in failure.message


@pytest.mark.parametrize("over", [1, 250])
def test_problem_and_constraints_over_the_limit_say_how_much_to_cut(over: int) -> None:
    suffix = "\n\nConstraints:\n- without more staff"
    problem = "x" * (MAX_PROBLEM_CHARS - len(suffix) + over)
    failure = problem_with_constraints(problem, ["without more staff"])
    assert isinstance(failure, ServiceFailure) and failure.kind == FailureKind.INVALID
    assert f"cut {over} characters" in failure.message and str(MAX_PROBLEM_CHARS) in failure.message
    assert problem_with_constraints(problem[:-over], ["without more staff"]) == problem[:-over] + suffix
