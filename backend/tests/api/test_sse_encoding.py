"""SSE frames: compact JSON data, ids only for stored events, and each frame encoded once per process."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

from forge.api.sse_encoding import SseFrameCache
from forge.core.domain_types import EventSeq, SessionId
from forge.core.session import events as ev
from forge.core.session.record import StoredEvent
from forge.services.broadcast.messages import Heartbeat, LiveEvent, StreamClosed

SID = SessionId(uuid.UUID(int=7))
AT = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


def fields(frame: bytes) -> dict[str, str]:
    """The SSE fields of one frame (each field on its own line)."""
    lines = [line for line in frame.decode().splitlines() if line]
    return dict(line.split(": ", 1) for line in lines)


def test_a_stored_event_has_its_seq_as_id_and_its_data_as_json_with_text_kept_as_is() -> None:
    frame = SseFrameCache().frame(SID, StoredEvent(EventSeq(12), ev.agent_text("").type, {"text": "Wärme → 熱"}, AT))
    got = fields(frame)
    assert (got["id"], got["event"]) == ("12", "agent_text")
    assert json.loads(got["data"]) == {"text": "Wärme → 熱"}
    assert "Wärme → 熱" in got["data"]  # not \\u-escaped


def test_live_events_and_closings_carry_no_id_and_heartbeats_repeat_the_cursor() -> None:
    frames = SseFrameCache()
    live = fields(frames.frame(SID, LiveEvent(ev.agent_text_delta("draft"))))
    closing = fields(frames.frame(SID, StreamClosed("SERVER_SHUTDOWN", "The server is shutting down.")))
    beat = fields(frames.frame(SID, Heartbeat(5)))
    assert "id" not in live and json.loads(live["data"]) == {"text": "draft"}
    assert "id" not in closing and json.loads(closing["data"])["code"] == "SERVER_SHUTDOWN"
    assert (beat["event"], beat["id"], beat["data"]) == ("heartbeat", "5", "{}")


def test_one_live_event_is_encoded_once_for_every_listener() -> None:
    frames = SseFrameCache()
    shared = LiveEvent(ev.agent_text_delta("streaming"))
    first = frames.frame(SID, shared)
    assert all(frames.frame(SID, shared) is first for _ in range(1000))  # the same bytes object
    other = LiveEvent(ev.agent_text_delta("streaming"))  # an equal event is another event
    assert frames.frame(SID, other) is not first and frames.frame(SID, other) == first


def test_the_live_frame_cache_stays_bounded_and_never_confuses_events() -> None:
    frames = SseFrameCache(max_live_frames=4)
    events = [LiveEvent(ev.agent_text_delta(f"part {n}")) for n in range(50)]
    for event in events:
        assert json.loads(fields(frames.frame(SID, event))["data"]) == {"text": event.event.data["text"]}
    assert len(frames._live) == 4
