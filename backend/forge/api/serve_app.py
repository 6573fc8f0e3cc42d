"""Serving the app with uvicorn so that open event streams end with a reason when the server stops.

Invariants:
    - On shutdown, every open stream first gets `error{code: SERVER_SHUTDOWN}` (the broadcaster
      closes) and ends; only then does uvicorn wait for open responses, which are therefore gone
      at once instead of holding the shutdown until each client leaves.
    - Closing the broadcaster twice is harmless: the app's lifespan closes the container again.
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable

import uvicorn


class ForgeServer(uvicorn.Server):
    """uvicorn's server with one hook run before it waits for open connections to finish."""

    def __init__(self, config: uvicorn.Config, before_shutdown: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self._before_shutdown = before_shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await self._before_shutdown()
        await super().shutdown(sockets)
