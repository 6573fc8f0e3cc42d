"""The judgments every new hypothesis gets before SAGA's checkpoint reads it: the verifier's five
scores (`score_stage`) and Layer 4's hard-constraint check (the supervisor's judge), asked side by
side — and, at BISO, while the generator reviews the mapping tables — instead of one after another.

Invariants:
    - The same calls as one after the other: the scorer scores only hypotheses without an entry, and
      the constraint check's answers are kept by batch fingerprint, so the checkpoint that reads the
      same batch reuses them (its note says how many batches were answered before) and asks nothing.
    - With one engine slot (a one-slot local server) the judgments run one after the other: two
      batches at once would only queue on the server and run past its timeouts.
    - The events (usage, the score stage's summary) are returned in a fixed order, whatever order
      the calls finished in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from forge.agent.tool_context import ToolContext
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.observe import due_checkpoints
from forge.core.saga.records import Checkpoint
from forge.core.session.events import SessionEvent
from forge.engine.structured_batch import ProgressSink
from forge.services.stages.score_stage import ScoreStage
from forge.services.stages.supervision import Supervisor

# The checkpoints that hold a stage's own batch against the hard constraints (CP-4 after BISO, CP-5 after
# a SEARCH round); a batch no checkpoint reads (the suggested domains' after CP-4) is only scored.
_READ_THE_BATCH = (Checkpoint.CP4, Checkpoint.CP5)


class NewHypothesisJudges:
    def __init__(self, scorer: ScoreStage | None, supervisor: Supervisor | None, *, slots: int) -> None:
        self._scorer = scorer
        self._supervisor = supervisor
        self._side_by_side = slots > 1

    def alongside(
        self, ctx: ToolContext, progress: ProgressSink, into: list[SessionEvent]
    ) -> Callable[[Sequence[Hypothesis]], Awaitable[None]] | None:
        """A hook for `run_biso`'s mapping review: judge its merged pool (CP-4 reads it), the events into
        `into`. None with one slot: the judgments then follow the stage."""
        if not self._side_by_side:
            return None

        async def judge(hypotheses: Sequence[Hypothesis]) -> None:
            into.extend(await self.judge(ctx, hypotheses, progress, checkpoint_reads=True))

        return judge

    async def judge(
        self,
        ctx: ToolContext,
        hypotheses: Sequence[Hypothesis],
        progress: ProgressSink,
        *,
        checkpoint_reads: bool | None = None,
    ) -> tuple[SessionEvent, ...]:
        """Score the unscored `hypotheses` and, when the checkpoint due next reads this batch
        (`checkpoint_reads`; None: CP-4 or CP-5 is due in the state as it is now), ask the constraint
        judge about them; their events."""
        if not hypotheses:
            return ()
        if checkpoint_reads is None:
            checkpoint_reads = any(cp in _READ_THE_BATCH for cp in due_checkpoints(ctx.state))
        work: list[Awaitable[tuple[SessionEvent, ...]]] = []
        if self._scorer is not None:
            work.append(self._scorer.score(ctx, hypotheses, progress))
        if self._supervisor is not None and checkpoint_reads:
            work.append(self._supervisor.judge_constraints_ahead(ctx, hypotheses))
        if self._side_by_side:
            done = await asyncio.gather(*work)
        else:
            done = [await each for each in work]
        return tuple(event for events in done for event in events)
