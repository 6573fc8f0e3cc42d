"""A run process of `forge serve` (started by `run_process_pool`, never by hand): it builds the same
container as the server from the parent's settings and runs the sessions the parent hands it.

Invariants:
    - It lives exactly as long as its parent: the kernel kills it when the parent dies
      (PR_SET_PDEATHSIG, Linux), and it exits at once when its socket reaches EOF (the parent closed
      it or died). A run it held then stops mid-step; its lease dies with the parent's registry.
    - Every run is the PhaseRunDriver's, with the parent's lease, held by this process's RunRegistry
      as an in-process run is: the step commits here; the step's events, live events and the run's
      end go to the parent on the socket, in order.
    - `Stop` cancels every run (each commits or drops its step in flight), reports each one's end,
      closes the container and exits 0.

Usage (by the pool): python -m forge.run_processes.child <socket fd> <parent pid>
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial

from forge.bootstrap.build_container import build_container
from forge.core.domain_types import Phase, SessionId
from forge.core.session.events import SessionEvent
from forge.core.session.record import RunLease, StoredEvent
from forge.observability.logging_setup import configure_logging
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
    ToParent,
    encode_frame,
    read_frame,
)
from forge.services.runs.drive_phase_run import PhaseRunDriver

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


class ParentLink:
    """The run's event sink and observer in a child: everything goes to the parent, in order."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._step: tuple[SessionId, tuple[StoredEvent, ...]] | None = None
        self._frames: list[bytes] = []

    def send(self, message: ToParent) -> None:
        # Frames of one turn of the loop go out in one write (one syscall here, one wake-up of the
        # parent): a step's events, its live events and the run's end are often sent together.
        if not self._frames:
            asyncio.get_running_loop().call_soon(self.flush)
        self._frames.append(encode_frame(message))

    def flush(self) -> None:
        if self._frames:
            self._writer.write(b"".join(self._frames))
            self._frames.clear()

    @contextlib.contextmanager
    def committing(self, session_id: SessionId) -> Iterator[None]:
        yield  # the parent is told of the commit by `published`, in order: nothing to hold back

    def published(self, session_id: SessionId, events: Sequence[StoredEvent]) -> None:
        # The driver reports the same step to its observer right after (`events_committed`, which
        # knows the model's provider): the step goes out then, as one frame.
        self.flush_step()
        self._step = (session_id, tuple(events))

    def flush_step(self, provider: str = "") -> None:
        """The published step goes out now (also one its observer was never told of: never, in the
        driver), with the live frames before it: followers wait for it, and on a busy loop the next
        turn can be a whole step of another session away."""
        if self._step is not None:
            session_id, stored = self._step
            self._step = None
            self.send(StepPublished(session_id, provider, stored))
            self.flush()

    def publish_live(self, session_id: SessionId, event: SessionEvent) -> None:
        self.send(LivePublished(session_id, event))

    def events_committed(self, provider: str, events: Sequence[StoredEvent]) -> None:
        self.flush_step(provider)

    def run_ended(self, phase: Phase, seconds: float) -> None:
        self.send(RunObserved(phase, seconds))


async def run_and_report(driver: PhaseRunDriver, link: ParentLink, session_id: SessionId, lease: RunLease) -> None:
    """One run, as the registry's task; its end (and its exception, if it raised) goes to the parent."""
    failure: str | None = None
    try:
        await driver.run(session_id, lease)
    except Exception as error:
        failure = repr(error)
        raise
    finally:
        link.flush_step()
        link.send(RunFinished(lease.owner, failure))


async def serve_parent(sock: socket.socket) -> int:
    reader, writer = await asyncio.open_connection(sock=sock)
    hello = await read_frame(reader)
    if not isinstance(hello, Hello):
        log.error("run process: expected Hello first, got %r", type(hello).__name__)
        return 2
    configure_logging(hello.settings.log_format, hello.settings.log_level)
    link = ParentLink(writer)
    container = build_container(
        replace(hello.settings, run_processes=0), run_sink=link, run_observer=link, relay_origin=hello.relay_origin
    )
    container.warm_on_start = hello.warm
    await container.start()
    driver, runs = container.driver, container.runs
    assert driver is not None  # built from settings: the container has its own step loop
    link.send(Ready(os.getpid()))
    try:
        while (message := await read_frame(reader)) is not None:
            if isinstance(message, StartRun):
                sid, lease = message.session_id, message.lease
                runs.start(sid, lease, partial(run_and_report, driver, link, sid, lease))
            elif isinstance(message, CancelRun):
                await runs.cancel(message.session_id)  # waits for the step in flight: commits or drops it
            elif isinstance(message, Stop):
                await container.close()  # cancels every run first (the registry's shutdown)
                link.flush()
                await writer.drain()
                return 0
        os._exit(1)  # the parent died: stop now, as it did (its registry no longer holds our leases)
    finally:
        writer.close()


def _die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the line above
        os._exit(1)


def main(argv: list[str]) -> int:
    fd, parent_pid = int(argv[0]), int(argv[1])
    _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal reaches the group: the parent decides
    sock = socket.socket(fileno=fd)
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        return runner.run(serve_parent(sock))


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop where it is installed, as uvicorn picks it for the server."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
