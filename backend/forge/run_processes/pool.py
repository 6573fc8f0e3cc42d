"""`forge serve`'s run processes (FORGE_RUN_PROCESSES): sessions run in child processes, so a server
uses more than one core while the API process keeps accepting commands and streaming.

Invariants:
    - The parent owns every lease. A command takes the lease, reserves it in the parent's
      RunRegistry and starts the registry's task as usual; that task is `RunProcessPool.run`, a proxy
      that hands (session, lease) to one child and waits for it to report the run's end. "Is it
      running" is therefore answered by the parent alone, exactly as for an in-process run: a lease
      of a dead child (or of a killed server) is dead at once, and its session resumable.
    - A child runs the same step loop (`PhaseRunDriver`) on its own connection to the same database;
      every step commits there, under the lease check, so a child that dies loses at most its step in
      flight and can never commit after a newer run took the session.
    - A child's committed and live events come back on its socket in order; the parent publishes them
      to its broadcaster (and its metrics), so followers see them as if the run were in-process.
    - Cancelling the proxy (a user's cancel, a delete, shutdown) tells the child to cancel the run and
      waits for the child to report it ended: the step in flight commits or is dropped, never halved.
    - A child that dies fails the runs it held: the parent commits their failure (RUN_FAILED,
      recoverable, and done) under the lease check, so followers learn at once and POST /run resumes
      the session from its last committed step; the child is replaced after a short pause. A child dies with the parent: the kernel
      kills it when the parent dies (PR_SET_PDEATHSIG), and it exits when its socket reaches EOF.
    - Runs go to the child with the fewest runs (ties: the first); a run started before any child is
      ready waits for one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.session.record import RunLease
from forge.ports import RunEventSink, RunObserver
from forge.run_processes.messages import (
    CancelRun,
    Hello,
    LivePublished,
    Ready,
    RunFinished,
    RunObserved,
    StartRun,
    StepPublished,
    Stop,
    ToChild,
    encode_frame,
    read_frame,
)

log = logging.getLogger(__name__)

RESPAWN_PAUSE_SECONDS = 1.0  # a child that dies at once (a broken install) must not spin the CPU
STOP_GRACE_SECONDS = 10.0  # a stopped child's runs commit their step in flight; then it is killed
CANCEL_WAIT_SECONDS = 30.0  # a cancelled run waits this long for its child's report


class RunProcessDied(RuntimeError):
    """The child that ran the run died before reporting its end."""


@dataclass(eq=False)
class _Child:
    index: int
    process: asyncio.subprocess.Process
    writer: asyncio.StreamWriter
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    runs: dict[str, asyncio.Future[None]] = field(default_factory=dict)
    reader_task: asyncio.Task[None] | None = None

    def send(self, message: ToChild) -> None:
        if not self.writer.is_closing():
            self.writer.write(encode_frame(message))


class RunProcessPool:
    def __init__(
        self,
        settings: Settings,
        count: int,
        sink: RunEventSink,
        observer: RunObserver,
        fail: Callable[[SessionId, RunLease, Exception], Awaitable[object]],
        *,
        relay_origin: str | None = None,
    ) -> None:
        if count < 1:
            raise ValueError("a run process pool needs at least one process")
        self._settings = settings
        self._count = count
        self._sink = sink
        self._observer = observer
        self._fail = fail
        self._relay_origin = relay_origin
        self._children: list[_Child | None] = [None] * count
        self._changed = asyncio.Event()  # a child became ready (or the pool closed)
        self._closing = False
        self._warm = False

    async def start(self, *, warm: bool) -> None:
        """Start every child; return once all can take runs (with `warm`, as `forge serve` asks, each
        loads the tokenizer and the hypergraph first: they warm up in parallel)."""
        self._warm = warm
        for index in range(self._count):
            await self._spawn(index)
        children = [c for c in self._children if c is not None]
        await asyncio.gather(*(self._started(c) for c in children))

    async def _started(self, child: _Child) -> None:
        ready = asyncio.ensure_future(child.ready.wait())
        assert child.reader_task is not None
        await asyncio.wait([ready, child.reader_task], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            self._closing = True  # a child that cannot start is a broken install: no respawn loop
            raise RuntimeError(f"run process {child.index} exited before it was ready (its log is above)")

    async def _spawn(self, index: int) -> None:
        parent_end, child_end = socket.socketpair()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "forge.run_processes.child",
                str(child_end.fileno()),
                str(os.getpid()),
                pass_fds=(child_end.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
            )
        finally:
            child_end.close()
        reader, writer = await asyncio.open_connection(sock=parent_end)
        child = _Child(index, process, writer)
        self._children[index] = child
        child.send(Hello(self._settings, self._relay_origin, self._warm))
        child.reader_task = asyncio.get_running_loop().create_task(
            self._listen(child, reader), name=f"forge-run-process-{index}"
        )
        log.info("run process %d started (pid %d)", index, process.pid)

    async def run(self, session_id: SessionId, lease: RunLease) -> None:
        """The registry's task for one run: it ends when the child reports the run's end."""
        child = await self._least_busy()
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        child.runs[lease.owner] = ended
        child.send(StartRun(session_id, lease))
        # For the whole run, a commit of the session announced by PostgreSQL (NOTIFY) waits for the
        # child's frames instead of a grace period: under load the frames may come later than the
        # grace, and each fill would read events the socket is about to deliver.
        with self._sink.committing(session_id):
            await self._until_ended(session_id, lease, child, ended)

    async def _until_ended(
        self, session_id: SessionId, lease: RunLease, child: _Child, ended: asyncio.Future[None]
    ) -> None:
        try:
            await asyncio.shield(ended)
        except RunProcessDied as died:
            # Nobody else will say it: end the run as failed here (under the lease check), so its
            # followers learn now, not at their next heartbeat, and POST /run resumes it.
            await self._fail(session_id, lease, died)
        except asyncio.CancelledError:
            child.send(CancelRun(session_id))
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(ended), CANCEL_WAIT_SECONDS)
            raise
        finally:
            child.runs.pop(lease.owner, None)

    async def _least_busy(self) -> _Child:
        if not any(c is not None for c in self._children):
            raise RuntimeError("the run processes were never started (Container.start opens them)")
        while True:
            if self._closing:
                raise RunProcessDied("the server is shutting down")
            ready = [c for c in self._children if c is not None and c.ready.is_set()]
            if ready:
                return min(ready, key=lambda c: len(c.runs))
            self._changed.clear()
            await self._changed.wait()

    async def _listen(self, child: _Child, reader: asyncio.StreamReader) -> None:
        try:
            while (message := await read_frame(reader)) is not None:
                self._receive(child, message)
        except Exception:
            log.exception("run process %d sent a frame that could not be read", child.index)
        finally:
            await self._lost(child)

    def _receive(self, child: _Child, message: object) -> None:
        if isinstance(message, StepPublished):
            self._sink.published(message.session_id, message.events)
            self._observer.events_committed(message.provider, message.events)
        elif isinstance(message, LivePublished):
            self._sink.publish_live(message.session_id, message.event)
        elif isinstance(message, RunFinished):
            ended = child.runs.pop(message.owner, None)
            if ended is not None and not ended.done():
                if message.failure is None:
                    ended.set_result(None)
                else:
                    ended.set_exception(RuntimeError(f"the run failed in its process: {message.failure}"))
        elif isinstance(message, RunObserved):
            self._observer.run_ended(message.phase, message.seconds)
        elif isinstance(message, Ready):
            child.ready.set()
            self._changed.set()
            log.info("run process %d ready (pid %d)", child.index, message.pid)
        else:
            log.error("run process %d sent an unknown message %r", child.index, type(message).__name__)

    async def _lost(self, child: _Child) -> None:
        """The child's socket ended: fail its runs, reap it, replace it unless the pool is closing."""
        child.ready.clear()
        child.writer.close()
        for owner, ended in list(child.runs.items()):
            if not ended.done():
                ended.set_exception(RunProcessDied(f"run process {child.index} died during run {owner}"))
        child.runs.clear()
        code = await _reap(child.process)
        if self._closing:
            return
        log.error(
            "run process %d (pid %d) died with exit code %s; starting another", child.index, child.process.pid, code
        )
        while not self._closing and self._children[child.index] is child:
            await asyncio.sleep(RESPAWN_PAUSE_SECONDS)
            try:
                await self._spawn(child.index)
            except Exception:  # e.g. out of file descriptors or memory: try again after the pause
                log.exception("run process %d could not be started again", child.index)

    async def close(self) -> None:
        """Stop every child (after the registry cancelled the runs) and wait for them to exit."""
        self._closing = True
        self._changed.set()
        children = [c for c in self._children if c is not None]
        for child in children:
            child.send(Stop())
        for child in children:
            code = await _reap(child.process, STOP_GRACE_SECONDS)
            if code is None:
                log.warning("run process %d did not stop in %.0f s; killed", child.index, STOP_GRACE_SECONDS)
            if child.reader_task is not None:
                await asyncio.gather(child.reader_task, return_exceptions=True)


async def _reap(process: asyncio.subprocess.Process, grace: float = 5.0) -> int | None:
    """The child's exit code; a child still alive after `grace` seconds is killed (and None returned)."""
    try:
        return await asyncio.wait_for(process.wait(), grace)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        return None
