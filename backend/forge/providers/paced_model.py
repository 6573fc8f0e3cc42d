"""A LanguageModel wrapper that waits before each step, so the offline model's work can be watched.

Invariants:
    - Answers are exactly the inner model's; only their timing changes.
    - The wait happens before the inner call and is cancellable (a cancelled session stops at once).
    - Used only when FORGE_OFFLINE_STEP_DELAY_MS > 0: demos and the browser tests, where a phase
      must last long enough to cut a connection in the middle of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.ports import LanguageModel


class PacedModel:
    def __init__(
        self,
        inner: LanguageModel,
        delay_seconds: float,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._inner = inner
        self._delay = delay_seconds
        self._sleep = sleep

    @property
    def label(self) -> str:
        return self._inner.label

    @property
    def context_window(self) -> int:
        return self._inner.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await self._sleep(self._delay)
        return await self._inner.complete(request)
