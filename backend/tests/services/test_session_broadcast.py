"""SessionBroadcaster: every follower gets every committed event once, in order, from memory when it can.

The in-memory event log is the source of truth: assertions compare what followers received with what
it holds and count the reads it served. Nothing here asserts on time (see support.broadcast_streams).
Followers read with `take` use the default 15 s heartbeat, so a heartbeat-paced retry can neither
rescue a broken fill within the liveness guard nor add a read to the counts.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest
from support.broadcast_streams import LIVENESS, Stream, drain, seqs, take, take_each, until_waiting
from support.memory_event_log import MemoryEventLog, Read

from forge.core.domain_types import ReviewType, SessionId
from forge.core.session import events as ev
from forge.core.session.record import StoredEvent
from forge.services.broadcast.session_broadcast import (
    NOTIFIED_GRACE_SECONDS,
    WARM_EVENTS,
    BroadcastStats,
    FollowItem,
    Heartbeat,
    LiveEvent,
    SessionBroadcaster,
    StreamClosed,
)

SID = SessionId(uuid.UUID(int=1))
OTHER = SessionId(uuid.UUID(int=2))
QUICK = 0.005  # heartbeat interval: a heartbeat means "caught up and waiting"
NOTHING = BroadcastStats(channels=0, followers=0, buffered_events=0, background_tasks=0)


async def settled(broadcaster: SessionBroadcaster) -> BroadcastStats:
    """Stats once the background tasks cancelled by departing followers have finished."""
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    await asyncio.gather(*others, return_exceptions=True)
    return broadcaster.stats()


def finish(log: MemoryEventLog, broadcaster: SessionBroadcaster, session_id: SessionId = SID) -> StoredEvent:
    (done,) = log.commit(session_id, ev.done(error=False, awaiting_input=True))
    broadcaster.published(session_id, [done])
    return done


# ---- the load test ------------------------------------------------------------------------------


class Producer:
    """Commits bursts to the log, then publishes them shuffled, some twice and some not at all."""

    def __init__(self, log: MemoryEventLog, broadcaster: SessionBroadcaster, rng: random.Random) -> None:
        self.log, self.broadcaster, self.rng = log, broadcaster, rng
        self.progress = asyncio.Condition()
        self.peak_buffered = 0

    def committed(self) -> int:
        return len(self.log.events(SID))

    async def burst(self, count: int) -> None:
        events = self.log.commit_texts(SID, count)
        self.rng.shuffle(events)
        for stored in events:
            roll = self.rng.random()
            if roll < 0.05:
                continue  # never published here: only the source has it (a gap)
            self.broadcaster.published(SID, [stored])
            if roll > 0.97:
                self.broadcaster.published(SID, [stored])  # duplicate
        self.peak_buffered = max(self.peak_buffered, self.broadcaster.stats().buffered_events)
        async with self.progress:
            self.progress.notify_all()

    async def reached(self, seq: int) -> None:
        async with self.progress:
            await self.progress.wait_for(lambda: self.committed() >= seq)


async def test_hundreds_of_followers_each_receive_every_event_once_in_order_whatever_their_pace() -> None:
    log, rng = MemoryEventLog(), random.Random(20260101)
    broadcaster = SessionBroadcaster(log, buffer_size=64, page_size=50, live_buffer_size=8)
    producer, total, received = Producer(log, broadcaster, rng), 3000, {}
    slow_started = asyncio.Semaphore(0)
    log.commit_texts(SID, 1)

    async def follow(name: str, after_seq: int, slow: bool = False) -> None:
        items = received[name] = (after_seq, [])
        async for item in broadcaster.follow(SID, after_seq):
            items[1].append(item)
            if slow and isinstance(item, StoredEvent) and item.seq % 400 == 1:
                slow_started.release()
                await producer.reached(min(total - 1, item.seq + 4 * 64))  # far past the ring

    tasks = [asyncio.create_task(follow(f"fast-{n}", 0), name=f"fast-{n}") for n in range(400)]
    slow = [asyncio.create_task(follow(f"slow-{n}", 0, slow=True), name=f"slow-{n}") for n in range(50)]
    for _ in slow:
        await slow_started.acquire()  # every slow follower has its first event: now it falls behind
    while producer.committed() < total - 1:
        await producer.burst(min(rng.randint(1, 60), total - 1 - producer.committed()))
        if producer.committed() >= 1500 and len(tasks) == 400:
            late = [(f"late-{n}", rng.randrange(0, 1500)) for n in range(50)]
            tasks += [asyncio.create_task(follow(name, cursor), name=name) for name, cursor in late]
        await asyncio.sleep(0)  # the producer yields between bursts
    finish(log, broadcaster)
    await asyncio.wait_for(asyncio.gather(*tasks, *slow), timeout=300)

    assert len(received) == 500
    for name, (after_seq, items) in received.items():
        assert [item for item in items if not isinstance(item, Heartbeat)] == log.events(SID)[after_seq:], name
    assert all(log.reads_by(f"slow-{n}") for n in range(50))  # each fell behind the ring and read pages
    assert producer.peak_buffered <= 64 + 64 + 8  # ring + reorder buffer + live: not per follower
    assert await settled(broadcaster) == NOTHING


# ---- races around the switch from the source to memory ------------------------------------------


@pytest.mark.parametrize("page_size", [10, 500])
async def test_events_committed_while_a_follower_reads_the_source_are_yielded_once_in_order(page_size: int) -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 100)
    broadcaster = SessionBroadcaster(log, buffer_size=16, page_size=page_size)
    log.hold(lambda read: read.task.startswith("replaying") and read.after_seq == 0)
    replaying = asyncio.create_task(drain(broadcaster.follow(SID, 0)), name="replaying")
    await log.held.wait()  # its first page ends at 10 or 100, whatever is committed meanwhile
    for _ in range(4):
        broadcaster.published(SID, log.commit_texts(SID, 10))
    finish(log, broadcaster)
    log.release()
    assert await replaying == log.events(SID)


@pytest.mark.parametrize("held", ["last", "after"])
async def test_events_published_while_the_channel_starts_are_kept_and_yielded_once(held: str) -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 10)
    broadcaster = SessionBroadcaster(log)
    log.hold(lambda read: read.kind == held)
    follower = asyncio.create_task(drain(broadcaster.follow(SID, 0)))
    await log.held.wait()  # the start has read the last event or the tail: both end at 10
    broadcaster.published(SID, log.commit_texts(SID, 2))
    finish(log, broadcaster)
    log.release()
    assert await follower == log.events(SID)
    assert len(log.reads) == 2  # the last event and the tail: nothing else was read


async def test_a_commit_announced_while_the_channel_starts_is_fetched_once_started() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 10)
    broadcaster = SessionBroadcaster(log)
    log.hold(lambda read: read.kind == "after")
    follower = asyncio.create_task(take(broadcaster.follow(SID, 0), 12))
    await log.held.wait()  # the tail ends at 10
    log.commit_texts(SID, 2)
    broadcaster.committed_elsewhere(SID, 12)
    log.release()
    assert await follower == log.events(SID)


async def test_publishes_out_of_order_reach_followers_in_order_without_reading_the_source() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 5)
    broadcaster = SessionBroadcaster(log)
    stream = broadcaster.follow(SID, 5, heartbeat_seconds=QUICK)
    await until_waiting(stream)
    reads = len(log.reads)
    six, seven = log.commit_texts(SID, 2)
    broadcaster.published(SID, [seven])
    broadcaster.published(SID, [six])
    broadcaster.published(SID, [six])  # a duplicate changes nothing
    assert await until_waiting(stream) == [six, seven]
    assert len(log.reads) == reads


async def _followers_at_seq_5(log: MemoryEventLog, broadcaster: SessionBroadcaster, count: int) -> list[Stream]:
    """`count` followers that have received event 5, the latest; the channel is started."""
    log.commit_texts(SID, 5)
    streams = [broadcaster.follow(SID, 4) for _ in range(count)]
    assert await take_each(streams, 1) == [log.events(SID)[4:]] * count
    return streams


async def test_a_gap_is_filled_from_the_source_once_for_all_followers() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 100)
    reads = len(log.reads)
    missing = log.commit_texts(SID, 3)
    broadcaster.published(SID, missing[-1:])
    assert await take_each(streams, 3) == [missing] * 100
    assert len(log.reads) == reads + 1


async def test_a_commit_in_another_process_is_read_once_for_all_followers() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 100)
    reads = len(log.reads)
    elsewhere = log.commit_texts(SID, 3)
    broadcaster.committed_elsewhere(SID, 8)
    broadcaster.committed_elsewhere(SID, 7)  # a stale notification changes nothing
    assert await take_each(streams, 3) == [elsewhere] * 100
    assert len(log.reads) == reads + 1


async def test_a_notification_of_this_processs_own_commit_reads_nothing_when_the_publish_follows() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 3)
    reads = len(log.reads)
    mine = log.commit_texts(SID, 2)
    broadcaster.committed_elsewhere(SID, 7)  # PostgreSQL's NOTIFY overtook the committing task
    await asyncio.sleep(0)
    broadcaster.published(SID, mine)
    assert await take_each(streams, 2) == [mine] * 3
    await asyncio.sleep(2 * NOTIFIED_GRACE_SECONDS)
    assert len(log.reads) == reads


async def test_a_notification_during_this_processs_commit_reads_nothing_however_late_the_publish() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 3)
    reads = len(log.reads)
    with broadcaster.committing(SID):
        mine = log.commit_texts(SID, 2)
        broadcaster.committed_elsewhere(SID, 7)  # the NOTIFY came first
        await asyncio.sleep(3 * NOTIFIED_GRACE_SECONDS)  # a busy loop: the committing task resumes late
        broadcaster.published(SID, mine)
    assert await take_each(streams, 2) == [mine] * 3
    await asyncio.sleep(2 * NOTIFIED_GRACE_SECONDS)
    assert len(log.reads) == reads


async def test_a_commit_that_settles_without_publishing_what_was_announced_reads_it() -> None:
    """The database committed but the committing call failed: the announced events are read once."""
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 3)
    reads = len(log.reads)
    with broadcaster.committing(SID):  # two commits in flight (a step and a command)
        with broadcaster.committing(SID):
            committed = log.commit_texts(SID, 2)
            broadcaster.committed_elsewhere(SID, 7)
        await asyncio.sleep(2 * NOTIFIED_GRACE_SECONDS)
        assert len(log.reads) == reads  # one commit is still in flight: it may yet publish them
    assert await take_each(streams, 2) == [committed] * 3
    assert len(log.reads) == reads + 1


async def test_resync_reads_each_channel_once_and_delivers_what_notifications_missed() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    streams = await _followers_at_seq_5(log, broadcaster, 10)
    reads = len(log.reads)
    missed = log.commit_texts(SID, 2)  # committed while the listener was disconnected
    broadcaster.resync()
    assert await take_each(streams, 2) == [missed] * 10
    assert len(log.reads) == reads + 1


async def test_a_gap_that_opens_while_the_fill_reads_is_filled_without_waiting_for_a_heartbeat() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    (stream,) = await _followers_at_seq_5(log, broadcaster, 1)
    log.hold(lambda read: read.kind == "after")
    first = log.commit_texts(SID, 2)
    broadcaster.published(SID, first[1:])  # 6 is missing: a fill starts
    receiving = asyncio.create_task(take(stream, 4))
    await log.held.wait()  # the fill's answer is 6 and 7
    second = log.commit_texts(SID, 2)
    broadcaster.published(SID, second[1:])  # 8 is missing too
    log.release()
    assert await receiving == first + second


async def test_a_follower_that_finds_unannounced_commits_in_the_source_gets_them_fetched_for_all() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 10)
    broadcaster = SessionBroadcaster(log, buffer_size=2)
    waiting = broadcaster.follow(SID, 9)
    assert seqs(await take(waiting, 1)) == [10]
    unannounced = log.commit_texts(SID, 3)  # another process's notification was lost
    assert await take(broadcaster.follow(SID, 0), 13) == log.events(SID)
    assert await take(waiting, 3) == unannounced


async def test_a_failed_fill_is_retried_at_the_pace_of_heartbeats() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 5)
    broadcaster = SessionBroadcaster(log)
    stream = broadcaster.follow(SID, 5, heartbeat_seconds=QUICK)
    await until_waiting(stream)
    failures = iter([True])
    log.fail(lambda read: next(failures, False))  # the fill's first read fails, later reads succeed
    elsewhere = log.commit_texts(SID, 2)
    broadcaster.committed_elsewhere(SID, 7)
    assert await take(stream, 2) == elsewhere
    assert len(log.reads) == 4  # the start's two, the failed fill, the retry


async def test_an_overflowing_reorder_buffer_is_refilled_from_the_source() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log, buffer_size=8, page_size=4)
    (stream,) = await _followers_at_seq_5(log, broadcaster, 1)
    log.hold(lambda read: read.kind == "after")
    committed = log.commit_texts(SID, 35)
    for stored in committed[1:]:
        broadcaster.published(SID, [stored])  # seq 6 never arrives: 7..40 wait, then overflow
        assert broadcaster.stats().buffered_events <= 8 + 8
    log.release()
    assert await take(stream, 35) == committed


async def test_a_follower_slower_than_the_ring_reads_pages_from_the_source_and_memory_stays_bounded() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log, buffer_size=16, page_size=7)
    stream = broadcaster.follow(SID, 0, heartbeat_seconds=QUICK)
    assert seqs(await until_waiting(stream)) == [1]
    log.reads.clear()
    for _ in range(30):
        broadcaster.published(SID, log.commit_texts(SID, 10))
    assert broadcaster.stats().buffered_events == 16
    assert await until_waiting(stream) == log.events(SID)[1:]
    # Pages from the source while the next event is older than the ring (286..301), then memory only.
    assert [read.after_seq for read in log.reads] == list(range(1, 285, 7))


# ---- channels exist only while followed ----------------------------------------------------------


async def test_publishing_to_a_session_nobody_follows_keeps_nothing() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    broadcaster.published(SID, log.commit_texts(SID, 3))
    broadcaster.publish_live(SID, ev.agent_text("partial"))
    broadcaster.committed_elsewhere(SID, 3)
    broadcaster.resync()
    assert broadcaster.stats() == NOTHING
    assert log.reads == []


async def test_the_first_follower_starts_the_channel_with_the_logs_tail() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 20)
    broadcaster = SessionBroadcaster(log, buffer_size=8)
    stream = broadcaster.follow(SID, 14, heartbeat_seconds=QUICK)
    assert await until_waiting(stream) == log.events(SID)[14:]
    assert [(read.kind, read.after_seq) for read in log.reads] == [("last", -1), ("after", 12)]  # then memory


async def test_a_first_follower_resuming_near_the_end_warms_the_channel_from_its_cursor() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 300)
    broadcaster = SessionBroadcaster(log, buffer_size=256, page_size=200)
    cursor = 300 - WARM_EVENTS // 2  # a client a few events behind
    resumed = broadcaster.follow(SID, cursor, heartbeat_seconds=QUICK)
    assert await until_waiting(resumed) == log.events(SID)[cursor:]
    assert [(read.kind, read.after_seq) for read in log.reads] == [("last", -1), ("after", 300 - WARM_EVENTS)]
    behind = broadcaster.follow(SID, 100, heartbeat_seconds=QUICK)  # older than the warm tail: reads pages
    assert await until_waiting(behind) == log.events(SID)[100:]
    await resumed.aclose()
    await behind.aclose()


async def test_a_first_follower_from_the_start_warms_the_channel_with_a_whole_page() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 300)
    broadcaster = SessionBroadcaster(log, buffer_size=256, page_size=200)
    fresh = broadcaster.follow(SID, 0, heartbeat_seconds=QUICK)
    assert seqs(await until_waiting(fresh)) == list(range(1, 301))
    assert log.reads[:2] == [Read("last", -1, log.reads[0].task), Read("after", 100, log.reads[1].task)]
    await fresh.aclose()


async def test_the_channel_is_dropped_when_its_last_follower_leaves() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 3)
    broadcaster = SessionBroadcaster(log)
    finish(log, broadcaster)
    assert seqs(await drain(broadcaster.follow(SID, 0))) == [1, 2, 3, 4]
    assert await settled(broadcaster) == NOTHING


# ---- live events ----------------------------------------------------------------------------------


async def test_live_events_reach_caught_up_followers_until_the_next_commit() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 5)
    broadcaster = SessionBroadcaster(log)
    caught_up = broadcaster.follow(SID, 5, heartbeat_seconds=QUICK)
    await until_waiting(caught_up)
    hel, lo = LiveEvent(ev.agent_text("Hel")), LiveEvent(ev.agent_text("lo"))
    broadcaster.publish_live(SID, hel.event)
    broadcaster.publish_live(SID, lo.event)
    assert await until_waiting(caught_up) == [hel, lo]
    behind = broadcaster.follow(SID, 3, heartbeat_seconds=QUICK)
    assert await until_waiting(behind) == [*log.events(SID)[3:], hel, lo]  # live only once caught up
    (six,) = log.commit_texts(SID, 1)
    broadcaster.published(SID, [six])
    assert await until_waiting(caught_up) == [six]
    assert await until_waiting(behind) == [six]
    assert await until_waiting(broadcaster.follow(SID, 0, heartbeat_seconds=QUICK)) == log.events(SID)


async def test_live_events_wait_until_a_follower_has_every_known_commit() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    (stream,) = await _followers_at_seq_5(log, broadcaster, 1)
    log.hold(lambda read: read.kind == "after")
    (six,) = log.commit_texts(SID, 1)  # by another process
    broadcaster.committed_elsewhere(SID, 6)
    broadcaster.publish_live(SID, ev.agent_text("after 6"))
    receiving = asyncio.create_task(take(stream, 2))
    await log.held.wait()
    log.release()
    assert await receiving == [six, LiveEvent(ev.agent_text("after 6"))]


# ---- the end rule -----------------------------------------------------------------------------------


async def test_follow_ends_after_yielding_a_done_that_is_the_latest_event() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    log.commit_texts(SID, 2)
    finish(log, broadcaster)
    assert await drain(broadcaster.follow(SID, 0)) == log.events(SID)


async def test_follow_ends_at_once_when_the_latest_done_is_at_or_below_the_cursor() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log)
    log.commit_texts(SID, 2)
    finish(log, broadcaster)
    assert await drain(broadcaster.follow(SID, 3)) == []
    assert await drain(broadcaster.follow(SID, 9)) == []


async def test_follow_continues_past_a_done_that_a_later_commit_followed() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log, buffer_size=2, page_size=2)
    log.commit(SID, ev.agent_text("a"), ev.done(error=False, awaiting_input=True), ev.agent_text("b"))
    finish(log, broadcaster)
    assert await drain(broadcaster.follow(SID, 0)) == log.events(SID)


async def test_follow_does_not_end_at_a_done_when_a_later_commit_is_known() -> None:
    log = MemoryEventLog()
    broadcaster = SessionBroadcaster(log, page_size=1)  # the fill reads one event at a time
    (stream,) = await _followers_at_seq_5(log, broadcaster, 1)
    log.commit(SID, ev.done(error=False, awaiting_input=True), ev.user_input(ReviewType.CLAIMS_REVIEW, "ok"))
    broadcaster.committed_elsewhere(SID, 7)
    assert await take(stream, 2) == log.events(SID)[5:]


async def test_a_live_follower_ends_when_the_run_commits_done() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log)
    stream = broadcaster.follow(SID, 1, heartbeat_seconds=QUICK)
    await until_waiting(stream)
    done = finish(log, broadcaster)
    assert await drain(stream) == [done]


async def test_a_waiting_follower_sends_heartbeats_carrying_its_cursor() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 3)
    broadcaster = SessionBroadcaster(log)
    stream = broadcaster.follow(SID, 0, heartbeat_seconds=QUICK)
    assert seqs(await until_waiting(stream)) == [1, 2, 3]
    assert await anext(stream) == Heartbeat(last_seq=3)


# ---- closing --------------------------------------------------------------------------------------

SHUTDOWN = StreamClosed("SERVER_SHUTDOWN", "The server is shutting down.")


async def test_close_wakes_every_waiting_follower_with_server_shutdown() -> None:
    log = MemoryEventLog()
    (first,) = log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log)
    waiting = asyncio.Semaphore(0)

    async def follow() -> list[FollowItem]:
        items: list[FollowItem] = []
        async for item in broadcaster.follow(SID, 0):
            items.append(item)
            waiting.release()  # then it waits again, before this task yields to the test
        return items

    followers = [asyncio.create_task(follow()) for _ in range(3)]
    for _ in followers:
        await waiting.acquire()
    await broadcaster.close()
    async with asyncio.timeout(LIVENESS):
        assert await asyncio.gather(*followers) == [[first, SHUTDOWN]] * 3
    assert await drain(broadcaster.follow(SID, 0)) == [SHUTDOWN]
    assert await settled(broadcaster) == NOTHING


async def test_close_ends_followers_that_are_still_starting() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log)
    log.hold(lambda read: read.kind == "last")
    starting = asyncio.create_task(drain(broadcaster.follow(SID, 0)))
    await log.held.wait()
    closing = asyncio.create_task(broadcaster.close())
    assert await starting == [SHUTDOWN]  # at once, not once the read in flight has answered
    assert not closing.done()  # close() lets that read finish and give its connection back
    log.release()
    await closing
    assert log.answered == log.reads
    assert await settled(broadcaster) == NOTHING


async def test_close_cancels_a_source_read_that_outlasts_its_grace_period() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log, close_grace_seconds=0.01)
    log.hold(lambda read: read.kind == "last")  # a database that never answers
    starting = asyncio.create_task(drain(broadcaster.follow(SID, 0)))
    await log.held.wait()
    await broadcaster.close()
    assert await starting == [SHUTDOWN]
    assert log.answered == []  # cancelled: shutting down is not held up by a hung read
    assert await settled(broadcaster) == NOTHING


async def test_deleting_a_session_ends_its_followers_only() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    log.commit_texts(OTHER, 1)
    broadcaster = SessionBroadcaster(log)
    deleted = broadcaster.follow(SID, 1, heartbeat_seconds=QUICK)
    kept = broadcaster.follow(OTHER, 1, heartbeat_seconds=QUICK)
    await until_waiting(deleted)
    await until_waiting(kept)
    broadcaster.session_deleted(SID)
    assert await drain(deleted) == [StreamClosed("SESSION_DELETED", "The session was deleted.")]
    broadcaster.published(OTHER, log.commit_texts(OTHER, 1))
    assert seqs(await until_waiting(kept)) == [2]


# ---- cancellation and failures -----------------------------------------------------------------


@pytest.mark.parametrize("held", ["while starting", "while reading a page"])
async def test_a_follower_cancelled_during_a_source_read_leaves_nothing_behind(held: str) -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 10)
    broadcaster = SessionBroadcaster(log, buffer_size=4)
    kind = "last" if held == "while starting" else "after"
    log.hold(lambda read: read.kind == kind and (kind == "last" or read.task.startswith("f:")))
    follower = asyncio.create_task(drain(broadcaster.follow(SID, 0)), name="f")
    await log.held.wait()
    follower.cancel()
    with pytest.raises(asyncio.CancelledError):
        await follower
    log.release()
    assert await settled(broadcaster) == NOTHING
    assert log.answered == log.reads  # the read in flight ran to its end: a database connection is not cut mid-query
    assert seqs(await until_waiting(broadcaster.follow(SID, 8, heartbeat_seconds=QUICK))) == [9, 10]


async def test_a_follower_cancelled_while_waiting_leaves_nothing_behind() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 2)
    broadcaster = SessionBroadcaster(log)
    waiting = asyncio.Event()

    async def consume() -> None:
        async for item in broadcaster.follow(SID, 0, heartbeat_seconds=QUICK):
            if isinstance(item, Heartbeat):
                waiting.set()  # the follower goes straight back to waiting

    follower = asyncio.create_task(consume())
    await waiting.wait()
    follower.cancel()
    with pytest.raises(asyncio.CancelledError):
        await follower
    assert await settled(broadcaster) == NOTHING
    broadcaster.published(SID, log.commit_texts(SID, 1))
    assert broadcaster.stats() == NOTHING


async def test_a_source_failure_ends_the_stream_with_an_error_and_the_next_follower_retries() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 3)
    broadcaster = SessionBroadcaster(log)
    log.fail(lambda read: True)
    (closed,) = await drain(broadcaster.follow(SID, 0))
    assert isinstance(closed, StreamClosed) and closed.code == "EVENTS_UNAVAILABLE"
    log.fail(None)
    assert seqs(await until_waiting(broadcaster.follow(SID, 0, heartbeat_seconds=QUICK))) == [1, 2, 3]


async def test_a_failed_page_read_ends_only_that_follower() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 10)
    broadcaster = SessionBroadcaster(log, buffer_size=2)
    healthy = broadcaster.follow(SID, 10, heartbeat_seconds=QUICK)
    await until_waiting(healthy)
    log.fail(lambda read: read.after_seq == 0)
    (closed,) = await drain(broadcaster.follow(SID, 0))
    assert isinstance(closed, StreamClosed) and closed.code == "EVENTS_UNAVAILABLE"
    broadcaster.published(SID, log.commit_texts(SID, 1))
    assert seqs(await until_waiting(healthy)) == [11]
