"""A run interrupted by a model failure resumes from the persisted conversation, losing nothing."""

from __future__ import annotations

from pathlib import Path

from support.fixed_clock import CountingIds, FixedClock
from support.fresh_database import migrated_sqlite_url
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import ReframingType, SessionId
from forge.core.llm.messages import Message, ToolResult
from forge.core.session.events import EventType
from forge.core.session.records import ResearchHit
from forge.services.session_service import SessionService

HITS = [ResearchHit("corpus://queueing/littles-law", "Little's law", "Queue length equals arrival rate times wait.")]
PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _first_half() -> list[Message]:
    return [
        turn(call("research", {"query": "hospital emergency wait times"})),
        turn(call("decompose_to_fundamentals", {"fundamentals": ["arrivals", "service", "staff"]})),
    ]  # then the script runs out: the model "fails" on the third call


def _second_half() -> list[Message]:
    reframings = [{"text": f"Reframing {t.value}", "reframing_type": t.value} for t in ReframingType]
    return [
        turn(
            call("map_state_of_art", {"summary": "Queues dominate.", "sources": [HITS[0].source]}),
            call("extract_assumptions", {"assumptions": ["a1 demand", "a2 staffing", "a3 triage"]}),
            call("reframe_problem", {"reframings": reframings}),
        ),
        turn(text="Decomposition complete."),
    ]


def _container(url: str, model: ScriptedModel, ids: CountingIds) -> Container:
    return build_container(
        Settings(embedder="hashed", database_url=url),
        model=model,
        research=MemoryResearch(HITS),
        clock=FixedClock(),
        new_id=ids,
    )


async def _run_until_idle(service: SessionService, container: Container, sid: SessionId) -> list[EventType]:
    await service.start_run(sid)
    await container.runs.wait(sid)
    return [e.type for e in await service.events(sid, 0, 1000)]  # type: ignore[union-attr]


async def test_interrupted_run_resumes_from_history_without_repeating_work(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    ids = CountingIds()
    first_model = ScriptedModel(_first_half())
    first = _container(url, first_model, ids)
    record = await first.service.create(PROBLEM)
    sid = record.id  # type: ignore[union-attr]
    types = await _run_until_idle(first.service, first, sid)
    assert types[-2:] == [EventType.ERROR, EventType.DONE]
    await first.close()  # "restart the server"

    second_model = ScriptedModel(_second_half())
    second = _container(url, second_model, ids)
    types = await _run_until_idle(second.service, second, sid)
    await second.close()

    # The kickoff, then one resume marker for the same phase (no second brief).
    assert types.count(EventType.PHASE_CHANGE) == 2
    assert types[-2:] == [EventType.REVIEW_DECOMPOSE, EventType.DONE]
    resumed = second_model.requests[0].messages
    # The resumed model saw the first run's tool results (research, fundamentals) in its history.
    earlier = [p for m in resumed for p in m.parts if isinstance(p, ToolResult)]
    assert len(earlier) == 2 and "littles-law" in earlier[0].content
    third = _container(url, ScriptedModel([]), ids)
    state = await third.service.state(sid)
    log = await third.service.events(sid, 0, 1000)
    phases = [e.data for e in log if e.type == EventType.PHASE_CHANGE]  # type: ignore[union-attr]
    assert phases == [
        {"phase": "decompose", "round": 0, "resumed": False},
        {"phase": "decompose", "round": 0, "resumed": True},
    ]
    async with third.uow_factory() as uow:
        logged = [entry.tool_name for entry in await uow.tool_calls.list_for(sid)]
    await third.close()
    assert logged == [
        "research",
        "decompose_to_fundamentals",
        "map_state_of_art",
        "extract_assumptions",
        "reframe_problem",
    ]
    assert state.fundamentals == ["arrivals", "service", "staff"]  # type: ignore[union-attr]
    assert state.awaiting_input_type is not None  # type: ignore[union-attr]
