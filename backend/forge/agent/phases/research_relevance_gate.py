"""Before a research gate runs: the verifier's judgment of which of this phase's read results bear on
its subject, when a real model judges (issue #38); None offline, where shared words judge. The claim
gates (rules 14, 15) always ask; the problem and domain gates (rules 12, 13) ask only when no query
named their subject (`judge_where_words_fail`).

Invariants:
    - Asked only with a judge (`ToolContext.relevance_judge`, the verifier's structured model when the
      verifier is a real model) and only when this phase's research returned something read.
    - The judgment's tokens are billed to the session like every model call, also when it failed.
    - The same subject over the same results is judged once per run (`ToolContext.relevance_judged`):
      a tool retried without new research gets the same judgment, not a second call.
    - A failed judgment is not hidden: the gate judges by shared words and a research_warning says
      that it did and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.agent.call_model import charge_usage
from forge.agent.tool_context import ToolContext, ToolOutcome
from forge.core.research.hit_relevance import RelevanceJudgment, results_to_judge
from forge.core.rules.verdicts import RuleViolation
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.engine.verify.research_relevance import judge_research_relevance
from forge.ports import StructuredFailure


@dataclass(frozen=True, slots=True)
class GateJudgment:
    judgment: RelevanceJudgment | None = None
    notices: tuple[SessionEvent, ...] = ()

    def failed(self, violation: RuleViolation) -> ToolOutcome:
        return ToolOutcome.failed(violation, self.notices)


async def judge_research_for(ctx: ToolContext, subject: str) -> GateJudgment:
    judge = ctx.relevance_judge
    offered = results_to_judge(ctx.state) if judge is not None else ()
    if judge is None or not offered:
        return GateJudgment()
    key = (subject, tuple(h.source for h in offered))
    if key in ctx.relevance_judged:
        return GateJudgment(ctx.relevance_judged[key])
    judged, usage = await judge_research_relevance(judge, subject, offered)
    if usage.total:
        charge_usage(ctx, judge.label, usage)
    if isinstance(judged, StructuredFailure):
        message = (
            f"{judge.label} could not judge which research results bear on “{subject[:80]}” ({judged.message}); "
            "the research gate judged by shared words instead."
        )
        return GateJudgment(notices=(ev.research_warning(judge.label, message),))
    if judged is not None:
        ctx.relevance_judged[key] = judged
    return GateJudgment(judged)


async def judge_where_words_fail(ctx: ToolContext, subject: str, by_words: RuleViolation | None) -> GateJudgment:
    """Rules 12 and 13: a query naming the subject opens them; the model is asked only when none did."""
    return GateJudgment() if by_words is None else await judge_research_for(ctx, subject)
