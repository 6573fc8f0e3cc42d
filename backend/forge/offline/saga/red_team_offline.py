"""The offline red team (SAGA Layer 2): challenges read off the target's own text, every argument
opening "Offline check:".

Invariants: counterexample = the target's first failure mode (fails with none, survives when evidence
addresses it); operationalisability fails without a measurable cue; simplification fails when the
mechanism adds < 2 terms to the statement; causal reversal survives only when the text orders cause
and effect; injected questions are answered "unclear".
"""

from __future__ import annotations

import re
from typing import Any

from forge.core.research.text_terms import content_terms, shares_terms, term_set
from forge.engine.saga.red_team import (
    ChallengeKind,
    ChallengeOut,
    RedTeamBatch,
    RedTeamOutput,
    RedTeamTarget,
    TargetChallengesOut,
)
from forge.offline.offline_structured_model import offline_context
from forge.ports import StructuredRequest

_MEASURABLE = re.compile(
    r"\d|%|\b(?:rate|ratio|share|time|times|count|number|per|minutes?|hours?|days?|proportion|percent|fraction|"
    r"length|duration|frequency|index|score|cost|level|variance|mean|median)\b",
    re.I,
)
_CAUSAL_ORDER = re.compile(
    r"\b(?:so that|leads? to|causes?|before|after|then|because|reduc\w*|increas\w*|lower\w*|rais\w*|prevent\w*|shorten\w*)\b",
    re.I,
)
_NO_FAILURE = "Every recommendation must name at least one situation in which it fails."
_NO_MEASURE = "Every recommendation must name a measurable observable (a rate, a time, a count or a share)."


def offline_red_team(request: StructuredRequest[Any]) -> RedTeamOutput:
    targets = offline_context(request, RedTeamBatch).targets
    return RedTeamOutput(
        targets=[
            TargetChallengesOut(target_id=t.id, challenges=[_challenge(k, t) for k in t.challenges]) for t in targets
        ]
    )


def _verdict(kind: ChallengeKind, verdict: str, argument: str, constraint: str = "") -> ChallengeOut:
    return ChallengeOut(
        kind=kind, verdict=verdict, argument=f"Offline check: {argument}", suggested_constraint=constraint
    )


def _challenge(kind: ChallengeKind, t: RedTeamTarget) -> ChallengeOut:
    """One challenge read off the target's own text (see the module docstring for each rule)."""
    if kind is ChallengeKind.COUNTEREXAMPLE:
        if not t.failure_modes:
            return _verdict(kind, "fails", "the idea names no situation in which it would fail.", _NO_FAILURE)
        addressed = any(shares_terms(t.failure_modes[0], e, 2) for e in t.evidence)
        said = "the evidence addresses it." if addressed else "no evidence yet says how often it happens."
        return _verdict(
            kind, "survives" if addressed else "unclear", f"its own failure mode — {t.failure_modes[0]} — {said}"
        )
    if kind is ChallengeKind.OPERATIONALIZABILITY:
        if len(content_terms(t.observable)) >= 2 and _MEASURABLE.search(t.observable):
            return _verdict(kind, "survives", f"“{t.observable}” can be measured.")
        return _verdict(
            kind, "fails", f"the observable “{t.observable or 'none'}” names no quantity to measure.", _NO_MEASURE
        )
    if kind is ChallengeKind.SIMPLIFICATION:
        extra = sorted(term_set(t.mechanism) - term_set(t.statement))
        if len(extra) >= 2:
            return _verdict(
                kind, "survives", f"the mechanism adds what the statement does not ({', '.join(extra[:4])})."
            )
        return _verdict(kind, "fails", "the mechanism only restates the statement; a simpler explanation is open.")
    if kind is ChallengeKind.CAUSAL_REVERSAL:
        ordered = _CAUSAL_ORDER.search(f"{t.statement} {t.mechanism}") is not None
        return _verdict(
            kind, "survives" if ordered else "unclear", f"the statement says which way the cause runs: {ordered}."
        )
    return _verdict(
        kind, "unclear", f"the offline model cannot argue “{t.injected[0]}”; a real model's red team would."
    )
