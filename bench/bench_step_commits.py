"""Benchmark: what the step-commit path alone persists, without the model, the engine or HTTP.

One real offline session is run to its document (in-process, autopilot reviews) to get a realistic
end-of-session state and an assistant message. Then --sessions (20) concurrent sessions each commit
--steps (15) steps the way `PhaseRunDriver._commit` does: one transaction that locks the session,
appends one message, records two tool calls, saves the state (the end-of-session one: the largest
a step saves; each session has its own copy, and each step changes what a typical step changes: the
phase's spend, and one more record in the research log, its largest list) and appends --events (8)
events. Prints events persisted per second and this
process's CPU per event, per backend; no assertions. bench_load.py measures the whole product; this
separates the persistence path from the rest (see issue #10's note).

Ends with one line per backend:
    RESULT backend=<sqlite|postgresql> state=<finished|new> commit_events_per_s=<float> commit_cpu_ms_per_event=<float>
Run: backend/.venv/bin/python bench/bench_step_commits.py [--backend sqlite|postgresql|both]
         [--sessions 20] [--steps 15] [--events 8] [--state finished|new]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.cli.autopilot import drive_to_document
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Message
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session import events as ev
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import ToolCallEntry
from forge.core.session.spend import PhaseSpend
from forge.db.migrate import upgrade_database
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a small bakery reduce food waste at the end of each day?"
PG_SERVER = "127.0.0.1"


async def _finished_session(c: Container) -> tuple[ForgeState, list[Message]]:
    created = await c.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    async with asyncio.timeout(300):
        assert await drive_to_document(c.service, created.id, AutopilotPolicy())
    async with c.uow_factory() as uow:
        return await uow.sessions.load_state(
            created.id
        ), await uow.sessions.load_messages(created.id)


def _a_steps_changes(state: ForgeState) -> None:
    """What a model step typically changes: its phase's spend, and often a log it appends to."""
    phase = state.current_phase.value
    spent = state.spend_by_phase.get(phase, PhaseSpend())
    state.spend_by_phase[phase] = PhaseSpend(spent.tokens + 1_000, spent.cost_usd, spent.calls + 1)
    if state.research_log:
        state.research_log.append(state.research_log[-1])


async def _commit_steps(
    c: Container,
    sid: SessionId,
    state: ForgeState,
    message: Message,
    steps: int,
    events: int,
) -> None:
    now = datetime.now(UTC)
    step_events = [ev.agent_text("A step's text. " * 20)] + [
        ev.tool_call("search", "query") for _ in range(events - 1)
    ]
    calls = [
        ToolCallEntry(
            "search", {"query": "x"}, {"hits": []}, None, state.current_phase, now
        )
    ] * 2
    state = copy.deepcopy(state)  # each session its own, as in the product
    for _ in range(steps):
        _a_steps_changes(state)
        async with c.uow_factory() as uow:
            await uow.sessions.lock(sid)
            await uow.sessions.append_messages(sid, [message])
            await uow.tool_calls.record_all(sid, calls)
            await uow.sessions.save_state(
                sid, state, at=now, cancelled=False, run_lease=None
            )
            await uow.events.append_all(sid, step_events, now)
            await uow.commit()


async def measure(url: str, args: argparse.Namespace) -> tuple[float, float]:
    await upgrade_database(url)
    c = build_container(Settings(database_url=url))
    try:
        state, messages = await _finished_session(c)
        message = [m for m in messages if m.role == "assistant"][-1]
        if args.state == "new":
            fresh = await c.service.create(PROBLEM)
            assert not isinstance(fresh, ServiceFailure)
            async with c.uow_factory() as uow:
                state = await uow.sessions.load_state(fresh.id)
        sids = []
        for i in range(args.sessions):
            created = await c.service.create(
                f"Problem {i}: how can team {i} cut its waiting times?"
            )
            assert not isinstance(created, ServiceFailure)
            sids.append(created.id)
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(
            *(
                _commit_steps(c, sid, state, message, args.steps, args.events)
                for sid in sids
            )
        )
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        await c.close()
    count = args.sessions * args.steps * args.events
    print(
        f"  state {len(str(state)) // 1000}k characters; {count} events in {wall:.2f} s; "
        f"{count / wall:.0f} events/s; CPU {1000 * cpu / count:.2f} ms/event ({1000 * cpu / (count / args.events):.1f} ms/step)"
    )
    return count / wall, 1000 * cpu / count


def run_backend(backend: str, args: argparse.Namespace) -> tuple[float, float]:
    print(f"== {backend}", flush=True)
    if backend == "sqlite":
        directory = tempfile.mkdtemp(prefix="forge-bench-commits-")
        return asyncio.run(measure(f"sqlite+aiosqlite:///{directory}/commits.db", args))
    name = f"forge_bench_commits_{uuid.uuid4().hex[:8]}"
    subprocess.run(["createdb", "-h", PG_SERVER, "-U", "postgres", name], check=True)
    try:
        return asyncio.run(
            measure(f"postgresql+asyncpg://postgres@{PG_SERVER}:5432/{name}", args)
        )
    finally:
        subprocess.run(
            ["dropdb", "-h", PG_SERVER, "-U", "postgres", "--force", name], check=False
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--backend", choices=("sqlite", "postgresql", "both"), default="both"
    )
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--steps", type=int, default=15)
    parser.add_argument(
        "--events", type=int, default=8, help="events per step (at least 1)"
    )
    parser.add_argument(
        "--state",
        choices=("finished", "new"),
        default="finished",
        help="the state each step writes: the finished session's (default) or a new session's (the write's cost apart)",
    )
    args = parser.parse_args()
    args.events = max(1, args.events)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results = {b: run_backend(b, args) for b in backends}
    for backend, (rate, cpu) in results.items():
        print(
            f"RESULT backend={backend} state={args.state} commit_events_per_s={rate:.1f} "
            f"commit_cpu_ms_per_event={cpu:.2f}"
        )


if __name__ == "__main__":
    main()
