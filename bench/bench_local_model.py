"""Benchmark: one whole autopilot session against a real local OpenAI-compatible server.

Needs a running server (llama.cpp's llama-server, llama-cpp-python's server, vLLM or Ollama) and the
usual settings: FORGE_MODEL=local:<model> OPENAI_BASE_URL=http://127.0.0.1:8080/v1 (and
OPENAI_CONTEXT_WINDOW when the server does not report its window; FORGE_MODEL_TIMEOUT_S for a slow
CPU model). First runs `forge doctor`'s checks of the server; with nothing listening it prints
`RESULT skipped=no_server` and exits 0 (nothing to measure). Otherwise it prints, per phase: model
calls, tokens, seconds, tool calls refused and why, errors; then one line:
    RESULT finished=<0|1> calls=<int> tokens=<int> refused=<int> seconds=<float> stop=<code or ->
(stop=TIME_LIMIT: `--max-seconds` ran out first; a small CPU model can take hours for a whole session).
Run: make bench-local-model [BENCH_ARGS="--max-seconds 1800"]
(scripts/run_local_llama_server.sh starts llama-cpp-python on a small GGUF)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from forge.bootstrap.build_container import build_container
from forge.cli.autopilot import drive_to_document
from forge.cli.doctor import render
from forge.cli.doctor_local_server import local_server_findings
from forge.config import Settings, environment_with_dotenv
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import EventType
from forge.core.session.record import StoredEvent
from forge.services.service_results import ServiceFailure

DEFAULT_PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@dataclass
class PhaseTally:
    calls: int = 0
    tokens: int = 0
    first: float | None = None
    last: float = 0.0
    refused: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def tally(events: list[StoredEvent]) -> dict[str, PhaseTally]:
    phases: dict[str, PhaseTally] = defaultdict(PhaseTally)
    phase = "decompose"
    for event in events:
        data = event.data
        if event.type == EventType.PHASE_CHANGE:
            phase = str(data["phase"])
        row = phases[phase]
        stamp = event.created_at.timestamp()
        row.first = stamp if row.first is None else row.first
        row.last = stamp
        if event.type == EventType.CONTEXT_USAGE:
            row.calls += 1
            row.tokens += int(data.get("tokens_used", 0) or 0)
        elif event.type == EventType.TOOL_ERROR:
            row.refused[f"{data['tool']}:{data['error_code']}"] += 1
        elif event.type == EventType.ERROR:
            row.errors.append(f"{data['code']}: {str(data['message'])[:300]}")
    return phases


async def run(problem: str, settings: Settings, max_seconds: float | None) -> int:
    findings = await local_server_findings(settings, check_tools=False)
    print(render(findings) if findings else "no local: route configured (FORGE_MODEL=local:<model>)")
    if not findings or not findings[0].ok:
        print("RESULT skipped=no_server")
        return 0
    container = build_container(replace(settings, run_processes=0))
    started = time.perf_counter()
    timed_out = False
    try:
        service = container.service
        record = await service.create(problem)
        if isinstance(record, ServiceFailure):
            print(f"RESULT skipped=create_failed ({record.message})")
            return 1
        policy = AutopilotPolicy(accept_threshold=0.5, rounds=1)
        try:
            finished = await asyncio.wait_for(drive_to_document(service, record.id, policy), max_seconds)
        except TimeoutError:
            finished, timed_out = False, True
        events = await service.events(record.id, 0, 100_000)
    finally:
        await container.close()
    if isinstance(events, ServiceFailure):
        return 1
    return report(tally(list(events)), finished, time.perf_counter() - started, timed_out)


def report(phases: dict[str, PhaseTally], finished: bool, seconds: float, timed_out: bool = False) -> int:
    for name, row in phases.items():
        took = (row.last - row.first) if row.first is not None else 0.0
        refused = ", ".join(f"{k}×{v}" for k, v in row.refused.most_common()) or "none"
        print(f"{name:<12} calls={row.calls:<4} tokens={row.tokens:<8} seconds={took:<8.1f} refused: {refused}")
        for error in row.errors:
            print(f"{'':<12} ! {error}")
    stops = [e.split(":", 1)[0] for row in phases.values() for e in row.errors]
    calls = sum(r.calls for r in phases.values())
    tokens = sum(r.tokens for r in phases.values())
    refused = sum(sum(r.refused.values()) for r in phases.values())
    stop = "TIME_LIMIT" if timed_out else stops[-1] if stops else "-"
    print(
        f"RESULT finished={int(finished)} calls={calls} tokens={tokens} refused={refused} "
        f"seconds={seconds:.1f} stop={stop}"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default=DEFAULT_PROBLEM)
    parser.add_argument("--max-seconds", type=float, default=None, help="stop the session after this long")
    args = parser.parse_args()
    env = environment_with_dotenv()
    data_dir = tempfile.mkdtemp(prefix="forge-bench-local-")
    env = {**env, "FORGE_DATA_DIR": env.get("FORGE_DATA_DIR") or data_dir}
    settings = Settings.from_env(env)
    if settings.database_url.startswith("sqlite"):
        from forge.db.migrate import upgrade_database_sync

        upgrade_database_sync(settings.database_url)
    return asyncio.run(run(args.problem, settings, args.max_seconds))


if __name__ == "__main__":
    sys.exit(main())
