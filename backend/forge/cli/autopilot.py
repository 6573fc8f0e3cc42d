"""`forge answer`: one session in autopilot, with progress per phase, written to disk.

Invariants:
    - Writes `<slug>-<id>.md` (the document), `.json` (the session), and, when Solve built one,
      `<slug>-<id>.answer.md` and `.answer.json` (the AnswerPack, spend as of the end).
    - Uses the same SessionService as the API (create -> start_run -> review -> ... -> document); the
      AutopilotPolicy plays the person through `submit_autopilot_review`, as POST /autopilot does,
      so the log marks its reviews "autopilot: " the same way. Progress goes to stdout (a streaming
      reply as one growing "writing" line); files are written at the end.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.answer.build import with_current_spend
from forge.core.answer.render import answer_pack_json, render_answer_markdown
from forge.core.domain_types import SessionId
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import StoredEvent
from forge.core.session.state_codec import encode_state
from forge.services.broadcast.messages import Heartbeat, LiveEvent, StreamClosed
from forge.services.service_results import ServiceFailure
from forge.services.session_service import SessionService


@dataclass(frozen=True, slots=True)
class AutopilotOptions:
    problem: str
    rounds: int
    accept_threshold: float
    out: Path
    quiet: bool


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or "session"


class _Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.started = time.perf_counter()
        self.tools = 0
        self.errors = 0
        self.writing = 0  # characters of the reply streaming now (shown on one line while it grows)

    def say(self, text: str) -> None:
        if not self.quiet:
            if self.writing:
                print(flush=True)  # end the "writing" line
            self.writing = 0
            print(text, flush=True)

    def on_live(self, event: LiveEvent) -> None:
        """A streaming reply's progress on one line, so a slow model shows it is working."""
        if self.quiet or event.event.type != EventType.AGENT_TEXT_DELTA:
            return
        self.writing += len(str(event.event.data.get("text", "")))
        print(f"\r  … the model is writing ({self.writing} characters)", end="", flush=True)

    def on_event(self, event: StoredEvent) -> None:
        data = event.data
        if event.type == EventType.PHASE_CHANGE:
            self.tools = 0
            self.say(f"\n▸ {data['phase'].upper()} (round {data['round'] + 1})")
        elif event.type == EventType.TOOL_RESULT:
            self.tools += 1
            self.say(f"  ✓ {data['tool']}: {data['summary']}")
        elif event.type == EventType.TOOL_ERROR:
            self.errors += 1
            self.say(f"  ✗ {data['tool']}: {data['error_code']} — {data['message']}")
        elif event.type == EventType.ERROR:
            self.say(f"  ! {data['code']}: {data['message']}")
        elif event.type == EventType.USER_INPUT:
            self.say(f"  ↳ {data['type']}: {data['summary']}")  # the summary says "autopilot: ..."


async def _follow(
    service: SessionService, sid: SessionId, after: int, progress: _Progress
) -> tuple[int, StoredEvent | None]:
    last: StoredEvent | None = None
    async for item in service.follow(sid, after):
        if isinstance(item, LiveEvent):
            progress.on_live(item)
            continue
        if isinstance(item, Heartbeat):
            continue
        if isinstance(item, StreamClosed):
            progress.say(f"  ! {item.code}: {item.message}")
            break
        progress.on_event(item)
        after, last = item.seq, item
    return after, last


async def drive_to_document(
    service: SessionService, sid: SessionId, policy: AutopilotPolicy, progress: _Progress | None = None
) -> bool:
    """Run the session and answer each review with `policy` until its document exists (True), or
    a refusal or a failed run stops it (False). Also what benchmarks use to finish a session."""
    progress = progress or _Progress(quiet=True)
    cursor = 0
    for _ in range(40):  # bounded: 6 phases x 5 rounds is far below this
        state = await service.state(sid)
        if isinstance(state, ServiceFailure):
            return False
        if state.knowledge_document_markdown is not None:
            return True
        if state.awaiting_input_type is not None and state.awaiting_user_input:
            result = await service.submit_autopilot_review(sid, policy)
            if isinstance(result, ServiceFailure):
                progress.say(f"  ! review refused: {result.message}")
                return False
        else:
            started = await service.start_run(sid)
            if isinstance(started, ServiceFailure):
                progress.say(f"  ! run refused: {started.message}")
                return False
        cursor, last = await _follow(service, sid, cursor, progress)
        if last is not None and last.type == EventType.DONE and last.data.get("error"):
            return False
    return False


async def run_autopilot(settings: Settings, options: AutopilotOptions) -> int:
    # One session in this terminal: it runs in this process (FORGE_RUN_PROCESSES is `forge serve`'s).
    container = build_container(replace(settings, run_processes=0))
    progress = _Progress(options.quiet)
    try:
        service = container.service
        record = await service.create(options.problem)
        if isinstance(record, ServiceFailure):
            print(f"forge: {record.message}")
            return 2
        progress.say(f"Session {record.id} — {container.model.label}\nProblem: {record.problem}")
        policy = AutopilotPolicy(accept_threshold=options.accept_threshold, rounds=max(1, min(5, options.rounds)))
        finished = await drive_to_document(service, record.id, policy, progress)
        return await _write_outputs(service, record.id, options, progress, finished)
    finally:
        await container.close()


async def _write_outputs(
    service: SessionService, sid: SessionId, options: AutopilotOptions, progress: _Progress, finished: bool
) -> int:
    state = await service.state(sid)
    events = await service.events(sid, 0, 100_000)
    if isinstance(state, ServiceFailure) or isinstance(events, ServiceFailure):
        return 1
    options.out.mkdir(parents=True, exist_ok=True)
    stem = options.out / f"{_slug(options.problem)}-{str(sid)[:8]}"
    session_json = {
        "session_id": str(sid),
        "finished": finished,
        "state": encode_state(state),
        "events": [{"id": e.seq, "type": e.type.value, "data": e.data} for e in events],
    }
    stem.with_suffix(".json").write_text(json.dumps(session_json, indent=1, ensure_ascii=False), encoding="utf-8")
    if state.knowledge_document_markdown:
        stem.with_suffix(".md").write_text(state.knowledge_document_markdown, encoding="utf-8")
    answer = _write_answer(state, stem)
    elapsed = time.perf_counter() - progress.started
    progress.say(f"\n{'Done' if finished else 'Stopped'} in {elapsed:.1f}s, {len(events)} events.")
    print(f"document: {stem.with_suffix('.md') if finished else '(none)'}\nsession:  {stem.with_suffix('.json')}")
    print(f"answer:   {answer or '(none)'}")
    return 0 if finished else 1


def _write_answer(state: ForgeState, stem: Path) -> Path | None:
    if state.answer_pack is None:
        return None
    pack = with_current_spend(state.answer_pack, state)
    markdown = stem.with_name(f"{stem.name}.answer.md")
    markdown.write_text(render_answer_markdown(pack), encoding="utf-8")
    as_json = json.dumps(answer_pack_json(pack), indent=1, ensure_ascii=False)
    stem.with_name(f"{stem.name}.answer.json").write_text(as_json, encoding="utf-8")
    return markdown
