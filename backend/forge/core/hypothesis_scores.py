"""Rule-layer scores and behaviour descriptors of a hypothesis, for SEARCH selection (seed 000
§4.3.2, §8.3), computed from the hypothesis's own fields and the problem frame — no model call.

These are proxies, and say so: a verifier's scores (VERIFY) replace them where they exist.
    divergence   share of the mapping's source vocabulary (structure + source concepts) absent from
                 the frame's words: a source far from the problem's own terms diverges more.
    testability  4 for an observable of at least two content terms, + 6 × share of mapping rows
                 with an observable link.
    rationale    the mapping-quality rule layer's score (0..10, capped at 4 on a failed gate).
    robustness   3.5 per concrete failure mode named, up to 10 (a hypothesis that names how it
                 breaks is less likely to be overfit).
    feasibility  share of the frame's target terms (target object and outcome) that the statement
                 and observable address, × 10 (5 when the frame names no target).
Behaviour descriptor: the mechanism family from cue stems in the structure and mechanism, the data
granularity from cue stems in the observable ("other" / "aggregate" when no cue matches).

Invariants: pure and deterministic; every score lies in [0, 10]; every descriptor lies on
`SEARCH_GRID`'s axes.
"""

from __future__ import annotations

from forge.core.composite_score import ScoreVector
from forge.core.hypothesis_pool import Hypothesis
from forge.core.mome_grid import BehaviorDescriptor, GridAxes
from forge.core.problem_frame import ProblemFrame
from forge.core.text_terms import content_terms, term_set

MECHANISM_CUES: dict[str, tuple[str, ...]] = {
    "feedback": ("feedback", "loop", "regulat", "homeosta", "reinforc", "dampen", "control"),
    "flow": ("queue", "flow", "buffer", "throughput", "bottleneck", "pipeline", "backlog", "inventory"),
    "network": ("network", "diffus", "spread", "contagion", "hub", "percolat", "graph", "signal"),
    "selection": ("selection", "compet", "evolution", "fitness", "variation", "niche", "adapt"),
    "threshold": ("threshold", "phase", "tipping", "critical", "cascade", "saturat", "trigger"),
    "allocation": ("allocat", "optimi", "budget", "market", "price", "auction", "resource", "schedul"),
}
GRANULARITY_CUES: dict[str, tuple[str, ...]] = {
    "event": ("per event", "incident", "transaction", "per case", "each request", "per order", "per call"),
    "individual": ("per person", "patient", "employee", "customer", "per user", "individual", "per staff"),
    "group": ("team", "ward", "unit", "cohort", "group", "department", "shift", "class"),
}
SEARCH_GRID = GridAxes((*MECHANISM_CUES, "other"), (*GRANULARITY_CUES, "aggregate"))


def score_hypothesis(hypothesis: Hypothesis, frame: ProblemFrame) -> ScoreVector:
    return ScoreVector(
        divergence=_divergence(hypothesis, frame),
        testability=_testability(hypothesis),
        rationale=hypothesis.gate.mapping_score,
        robustness=min(10.0, 3.5 * sum(1 for f in hypothesis.failure_modes if len(content_terms(f)) >= 2)),
        feasibility=_feasibility(hypothesis, frame),
    )


def describe_behavior(hypothesis: Hypothesis) -> BehaviorDescriptor:
    mechanism = f"{hypothesis.structure} {hypothesis.mechanism}".casefold()
    family = next((name for name, cues in MECHANISM_CUES.items() if any(c in mechanism for c in cues)), "other")
    observable = hypothesis.observable.casefold()
    granularity = next(
        (name for name, cues in GRANULARITY_CUES.items() if any(c in observable for c in cues)), "aggregate"
    )
    return BehaviorDescriptor(family, granularity)


def _frame_words(frame: ProblemFrame) -> frozenset[str]:
    return term_set(" ".join((frame.objective, frame.target_object, frame.target_outcome, *frame.hard_constraints)))


def _divergence(hypothesis: Hypothesis, frame: ProblemFrame) -> float:
    source = term_set(" ".join((hypothesis.structure, *(row.source_concept for row in hypothesis.mapping.rows))))
    if not source:
        return 0.0
    return round(10.0 * len(source - _frame_words(frame)) / len(source), 2)


def _testability(hypothesis: Hypothesis) -> float:
    rows = hypothesis.mapping.rows
    linked = sum(1 for row in rows if row.observable_link.strip()) / len(rows) if rows else 0.0
    has_observable = len(content_terms(hypothesis.observable)) >= 2
    return round(4.0 * has_observable + 6.0 * linked, 2)


def _feasibility(hypothesis: Hypothesis, frame: ProblemFrame) -> float:
    target = term_set(f"{frame.target_object} {frame.target_outcome}")
    if not target:
        return 5.0
    addressed = term_set(f"{hypothesis.statement} {hypothesis.observable}")
    return round(10.0 * len(target & addressed) / len(target), 2)
