"""The verifier's five scores of the pool's new hypotheses (seed 000 §4.3.2), run by `EngineStages`
right after a stage that adds to the pool (BISO, suggested domains, SEARCH) — before SAGA's checkpoint
reads them — and over the pool SEARCH selects from (hypotheses a session made before this stage
existed). Composite, Pareto/MOME, SEARCH's seeds, Layer 1, the red team's targets and the AnswerPack
ranking read the scores from `ForgeState.hypothesis_scores`.

Invariants:
    - Only hypotheses without an entry are scored (`judged_scores.unscored`): a hypothesis is scored
      at most once per session, whatever the outcome; `SCORE_BATCH` per call, one pass.
    - With a model (`judge`), its answer is kept as a VERIFIER entry; a hypothesis whose call failed
      (or that the answer left out, even alone) gets a FALLBACK_WORD_RULES entry with the reason,
      and the stage summary the person reads says how many fell back and why.
    - Without one (the offline model), no call is made: every hypothesis gets an
      OFFLINE_WORD_RULES entry and the summary says the offline model's word rules scored them.
    - The calls are priced as the verifier model; the stage's events are its usage and one
      `engine_stage` `score` event with the counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.hypotheses.judged_scores import JudgedScores, ScoreSource, unscored
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.observe import frame_of
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink
from forge.engine.verify.score_hypotheses import SCORE_BATCH, STAGE, score_hypotheses
from forge.ports import LanguageModel, StructuredModel

OFFLINE_JUDGE = "offline word rules"


class ScoreStage:
    def __init__(
        self, judge: StructuredModel | None, priced_as: LanguageModel, *, concurrency: int = DEFAULT_CONCURRENCY
    ) -> None:
        self._judge = judge  # None: the offline model, whose scorer is the word rules
        self._priced_as = priced_as
        self._concurrency = concurrency

    @property
    def judge_label(self) -> str:
        return self._judge.label if self._judge is not None else OFFLINE_JUDGE

    async def score(
        self, ctx: ToolContext, hypotheses: Sequence[Hypothesis], progress: ProgressSink
    ) -> tuple[SessionEvent, ...]:
        """Score the hypotheses that have no entry yet; `ctx.state.hypothesis_scores` is updated."""
        state = ctx.state
        todo = unscored(hypotheses, state.hypothesis_scores)
        if not todo:
            return ()
        if self._judge is None:
            state.hypothesis_scores.update(
                {h.id: JudgedScores(ScoreSource.OFFLINE_WORD_RULES, OFFLINE_JUDGE) for h in todo}
            )
            summary = (
                f"Scores of {len(todo)} new hypotheses: the offline model's word rules (no model call; "
                "with a model provider the verifier scores them)."
            )
            counts = {"hypotheses": len(todo), "calls": 0, "scored": 0, "fallback": 0}
            return (ev.engine_stage(STAGE, summary, counts),)
        run = await score_hypotheses(
            self._judge, todo, state.problem, frame_of(state), concurrency=self._concurrency, progress=progress
        )
        label = self._judge.label
        for h in todo:
            scores = run.scores.get(h.id)
            state.hypothesis_scores[h.id] = (
                JudgedScores(ScoreSource.VERIFIER, label, scores)
                if scores is not None
                else JudgedScores(ScoreSource.FALLBACK_WORD_RULES, label, note=run.failures.get(h.id, "no answer"))
            )
        fallback = [h.id for h in todo if h.id not in run.scores]
        summary = (
            f"{label} scored {len(run.scores)} of {len(todo)} new hypotheses on five dimensions "
            f"in {run.calls} call(s) of up to {SCORE_BATCH}"
        )
        if fallback:
            why = run.failures.get(fallback[0], "no answer")
            summary += f"; {len(fallback)} fell back to word rules because the scoring call failed ({why})"
        counts = {"hypotheses": len(todo), "calls": run.calls, "scored": len(run.scores), "fallback": len(fallback)}
        usage = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        return (*usage, ev.engine_stage(STAGE, summary + ".", counts))
