"""Word-rule scores and behaviour descriptors of a hypothesis, for SEARCH selection (seed 000
§4.3.2, §8.3), computed from the hypothesis's own fields and the problem frame — no model call.

These are proxies, and say so: they are the OFFLINE model's scorer, and the fallback for a hypothesis
whose scoring call failed. With a model provider the verifier role scores every hypothesis
(`services/stages/score_stage`) and its scores replace these (`judged_scores`). Each is
graded from real differences between hypotheses (their words, their mapping table), never noise,
so hypotheses that differ do not pile up on one edge of the Pareto plane:
    divergence   10 × (½ source share + ½ claim share): the share of the mapping's source vocabulary
                 (structure + source concepts) absent from the frame's words, and the share of the
                 claim's own terms (statement + mechanism) absent from them — a source far from the
                 problem diverges, a claim that mostly restates the problem diverges less.
    testability  3 for an observable of at least two content terms, + 4 × share of mapping rows with
                 an observable link, + 1.5 when the observable names a measurement (rate, share,
                 median, per hour, a number …), + 1.5 when it states what to expect (a direction, a
                 threshold, a shape).
    rationale    0.7 × the mapping-quality rule layer's score (0..10, capped at 4 on a failed gate)
                 + 3 × the mapping table's depth: the share of its rows that map relations or
                 relations between relations rather than bare entities or attributes.
    robustness   2.5 per concrete failure mode named (at least two content terms), + 1 when it says
                 when it breaks (if / when / unless / only / outside / above / below), up to 10.
    feasibility  10 × (0.6 × the share of the frame's target terms (target object and outcome) the
                 statement and observable address + 0.4 × the share of the observable's terms that
                 are the problem's own words: data the problem's owner already names); 5 when the
                 frame names no target.
`score_pool` scores a whole pool, making divergence relative to the other hypotheses as well (what
SEARCH selection and the Pareto plot use; see there).
Behaviour descriptor: the mechanism family from cue stems in the structure and mechanism, the data
granularity from cue stems in the observable ("other" / "aggregate" when no cue matches).

Invariants: pure and deterministic; every score lies in [0, 10]; every descriptor lies on
`SEARCH_GRID`'s axes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from forge.core.explore.mapping_quality_gate import MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.identity_memo import IdentityMemo
from forge.core.research.text_terms import content_terms, term_set
from forge.core.selection.composite_score import ScoreVector
from forge.core.selection.mome_grid import BehaviorDescriptor, GridAxes

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
MEASUREMENT = re.compile(
    r"\b(?:measur\w*|rate|share|proportion|percent\w*|median|mean|average|count\w*|number of|time series|"
    r"per (?:hour|day|week|shift|patient|case|unit)|hourly|daily|weekly|minutes|hours|days)\b|\d|%"
)
EXPECTATION = re.compile(
    r"\b(?:expect\w*|above|below|threshold|rise\w*|drop\w*|fall\w*|increase\w*|decrease\w*|steepen\w*|"
    r"lag\w*|proportional|convex|concave|cluster\w*|peak\w*|plateau\w*|doubl\w*|halv\w*)\b"
)
BREAK_CONDITION = re.compile(r"\b(?:if|when|unless|only|outside|above|below|beyond|until|once)\b")
DEEP_MAPPINGS = frozenset({MappingType.RELATION, MappingType.HIGHER_ORDER})


# score_hypothesis per (hypothesis object, frame): SAGA, SEARCH's seeds and the answer score the same
# pool again at every checkpoint and round (the pool's records are shared objects, see
# hypothesis_repository); the frame is compared by value.
_SCORES: IdentityMemo[ScoreVector] = IdentityMemo(8192)


def score_hypothesis(hypothesis: Hypothesis, frame: ProblemFrame) -> ScoreVector:
    return _SCORES.get(hypothesis, lambda: _score(hypothesis, frame), frame)


def _score(hypothesis: Hypothesis, frame: ProblemFrame) -> ScoreVector:
    return ScoreVector(
        divergence=_divergence(hypothesis, frame),
        testability=_testability(hypothesis),
        rationale=_rationale(hypothesis),
        robustness=_robustness(hypothesis),
        feasibility=_feasibility(hypothesis, frame),
    )


def score_pool(pool: Sequence[Hypothesis], frame: ProblemFrame) -> list[ScoreVector]:
    """Every hypothesis's scores with novelty relative to the pool too (novelty search's archive):
    divergence = ½ its frame divergence + 5 × (1 − its claim's largest term overlap (Jaccard) with
    any other hypothesis of the pool). A child that rephrases its parent, or a near-twin of another
    domain's idea, is less novel than one unlike anything in the pool."""
    claims = [term_set(f"{h.statement} {h.mechanism}") for h in pool]
    scored = []
    for index, hypothesis in enumerate(pool):
        own = score_hypothesis(hypothesis, frame)
        nearest = max((_overlap(claims[index], other) for j, other in enumerate(claims) if j != index), default=0.0)
        scored.append(replace(own, divergence=round(0.5 * own.divergence + 5.0 * (1.0 - nearest), 2)))
    return scored


def _overlap(first: frozenset[str], second: frozenset[str]) -> float:
    shared = len(first & second)  # the union's size without building it: the pool compares every pair
    union = len(first) + len(second) - shared
    return shared / union if union else 0.0


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


def _outside_share(terms: frozenset[str], known: frozenset[str]) -> float:
    return len(terms - known) / len(terms) if terms else 0.0


def _divergence(hypothesis: Hypothesis, frame: ProblemFrame) -> float:
    source = term_set(" ".join((hypothesis.structure, *(row.source_concept for row in hypothesis.mapping.rows))))
    if not source:
        return 0.0
    known = _frame_words(frame)
    claim = term_set(f"{hypothesis.statement} {hypothesis.mechanism}")
    return round(5.0 * _outside_share(source, known) + 5.0 * _outside_share(claim, known), 2)


def _testability(hypothesis: Hypothesis) -> float:
    rows = hypothesis.mapping.rows
    linked = sum(1 for row in rows if row.observable_link.strip()) / len(rows) if rows else 0.0
    observable = hypothesis.observable.casefold()
    has_observable = len(content_terms(observable)) >= 2
    measured = has_observable and MEASUREMENT.search(observable) is not None
    expected = has_observable and EXPECTATION.search(observable) is not None
    return round(3.0 * has_observable + 4.0 * linked + 1.5 * measured + 1.5 * expected, 2)


def _rationale(hypothesis: Hypothesis) -> float:
    rows = hypothesis.mapping.rows
    deep = sum(1 for row in rows if row.mapping_type in DEEP_MAPPINGS) / len(rows) if rows else 0.0
    return round(min(10.0, 0.7 * hypothesis.gate.mapping_score + 3.0 * deep), 2)


def _robustness(hypothesis: Hypothesis) -> float:
    concrete = [f.casefold() for f in dict.fromkeys(hypothesis.failure_modes) if len(content_terms(f)) >= 2]
    return min(10.0, sum(2.5 + 1.0 * (BREAK_CONDITION.search(f) is not None) for f in concrete))


def _feasibility(hypothesis: Hypothesis, frame: ProblemFrame) -> float:
    target = term_set(f"{frame.target_object} {frame.target_outcome}")
    if not target:
        return 5.0
    addressed = term_set(f"{hypothesis.statement} {hypothesis.observable}")
    anchored = 1.0 - _outside_share(term_set(hypothesis.observable), _frame_words(frame))
    return round(6.0 * len(target & addressed) / len(target) + 4.0 * anchored, 2)
