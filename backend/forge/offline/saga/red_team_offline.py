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
from forge.engine.saga.red_team import ChallengeKind, ChallengeOut, RedTeamOutput, RedTeamTarget
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


def offline_red_team(request: StructuredRequest[Any]) -> RedTeamOutput:
    target = request.offline_context
    if not isinstance(target, RedTeamTarget):
        raise TypeError("the offline red team needs a RedTeamTarget")
    answers = {
        ChallengeKind.COUNTEREXAMPLE: _counterexample,
        ChallengeKind.OPERATIONALIZABILITY: _operationalizability,
        ChallengeKind.SIMPLIFICATION: _simplification,
        ChallengeKind.CAUSAL_REVERSAL: _causal_reversal,
        ChallengeKind.INJECTED: _injected,
    }
    return RedTeamOutput(challenges=[answers[kind](target) for kind in target.challenges])


def _counterexample(t: RedTeamTarget) -> ChallengeOut:
    kind = ChallengeKind.COUNTEREXAMPLE
    if not t.failure_modes:
        return ChallengeOut(
            kind=kind,
            verdict="fails",
            argument="Offline check: the idea names no situation in which it would fail, so nothing could show it wrong.",
            suggested_constraint="Every recommendation must name at least one situation in which it fails.",
        )
    failure = t.failure_modes[0]
    addressed = any(shares_terms(failure, e, 2) for e in t.evidence)
    return ChallengeOut(
        kind=kind,
        verdict="survives" if addressed else "unclear",
        argument=f"Offline check: its own failure mode is the counterexample — {failure}"
        + (" — and the evidence addresses it." if addressed else " — no evidence yet says how often it happens."),
    )


def _operationalizability(t: RedTeamTarget) -> ChallengeOut:
    kind = ChallengeKind.OPERATIONALIZABILITY
    measurable = len(content_terms(t.observable)) >= 2 and _MEASURABLE.search(t.observable) is not None
    if measurable:
        return ChallengeOut(kind=kind, verdict="survives", argument=f"Offline check: “{t.observable}” can be measured.")
    return ChallengeOut(
        kind=kind,
        verdict="fails",
        argument=f"Offline check: the observable “{t.observable or 'none'}” names no quantity to measure "
        "(no number, rate, time, count or share).",
        suggested_constraint="Every recommendation must name a measurable observable (a rate, a time, a count or a share).",
    )


def _simplification(t: RedTeamTarget) -> ChallengeOut:
    kind = ChallengeKind.SIMPLIFICATION
    extra = term_set(t.mechanism) - term_set(t.statement)
    if len(extra) >= 2:
        return ChallengeOut(
            kind=kind,
            verdict="survives",
            argument=f"Offline check: the mechanism adds what the statement does not ({', '.join(sorted(extra)[:4])}).",
        )
    return ChallengeOut(
        kind=kind,
        verdict="fails",
        argument="Offline check: the mechanism only restates the statement; a simpler explanation has not been ruled out.",
    )


def _causal_reversal(t: RedTeamTarget) -> ChallengeOut:
    ordered = _CAUSAL_ORDER.search(f"{t.statement} {t.mechanism}") is not None
    return ChallengeOut(
        kind=ChallengeKind.CAUSAL_REVERSAL,
        verdict="survives" if ordered else "unclear",
        argument="Offline check: "
        + (
            "the statement says which way the cause runs."
            if ordered
            else "the statement does not say which way the cause runs."
        ),
    )


def _injected(t: RedTeamTarget) -> ChallengeOut:
    return ChallengeOut(
        kind=ChallengeKind.INJECTED,
        verdict="unclear",
        argument=f"Offline check: the offline model cannot argue “{t.injected[0]}”; a real model's red team would.",
    )
