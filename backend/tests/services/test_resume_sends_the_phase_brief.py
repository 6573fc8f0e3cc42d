"""A run that fails on its very first model call of a phase still resumes with that phase's brief."""

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
from forge.core.llm.messages import Message
from forge.core.review.inputs import DecomposeReview
from forge.core.session.records import ResearchHit
from forge.services.service_results import ServiceFailure

HIT = ResearchHit("corpus://queueing/littles-law", "Little's law", "Queue length equals arrival rate times wait.")


def _decompose() -> list[Message]:
    reframings = [{"text": f"Reframing {t.value}", "reframing_type": t.value} for t in ReframingType]
    return [
        turn(call("research", {"query": "hospital emergency wait times"})),
        turn(
            call("decompose_to_fundamentals", {"fundamentals": ["arrivals", "service", "staff"]}),
            call("map_state_of_art", {"summary": "Queues dominate.", "sources": [HIT.source]}),
            call("extract_assumptions", {"assumptions": ["a1 demand", "a2 staffing", "a3 triage"]}),
            call("reframe_problem", {"reframings": reframings}),
        ),
        turn(text="Decomposed."),
    ]


def _container(url: str, model: ScriptedModel, ids: CountingIds) -> Container:
    return build_container(
        Settings(embedder="hashed", database_url=url),
        model=model,
        research=MemoryResearch([HIT]),
        clock=FixedClock(),
        new_id=ids,
    )


async def _settle(container: Container, sid: SessionId) -> None:
    await container.runs.wait(sid)
    await container.close()


async def test_a_phase_whose_first_call_failed_resumes_with_its_brief(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    ids = CountingIds()
    first = _container(url, ScriptedModel(_decompose()), ids)
    record = await first.service.create("How can a hospital cut emergency wait times without more staff?")
    assert not isinstance(record, ServiceFailure)
    await first.service.start_run(record.id)
    await _settle(first, record.id)

    failing = _container(url, ScriptedModel([]), ids)  # EXPLORE's first call fails
    assert not isinstance(await failing.service.submit_review(record.id, DecomposeReview((0,))), ServiceFailure)
    await _settle(failing, record.id)

    recording = ScriptedModel([turn(text="Exploring.")])
    resumed = _container(url, recording, ids)
    await resumed.service.start_run(record.id)
    await _settle(resumed, record.id)
    last = recording.requests[0].messages[-1]
    assert last.text.startswith("[forge phase=explore round=1]")
