"""The slow agent's policy: which directives a finding causes (seed 000 §5.3), and how the fast
path reads the directives it took (search quotas, seeds it may expand).

Invariants:
    - Pure and explicit: `POLICY` maps each finding kind to a function returning its directives
      (none for kinds that are only shown to the person). Every directive names its finding.
    - Directive ids are `<finding id>:<directive kind>` — stable across a resumed run.
    - A dismissed finding causes nothing; a batch in which every hypothesis breaks a hard
      constraint pauses the pipeline (nothing safe to expand); a later batch without such a
      violation, or the person dismissing the pausing finding, resumes it.
    - In K-space (C-K coordinator) SEARCH deepens rather than widens: oppose/extreme quotas −1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from forge.core.saga.ck import Space
from forge.core.saga.records import Directive, DirectiveId, DirectiveKind, FindingKind, SupervisorFinding
from forge.core.saga.state import SupervisionState, apply_directive
from forge.core.search.plan import SearchOperator

COLLINEAR_DAMPING = 0.5

Rule = Callable[[SupervisorFinding, SupervisionState, int], list[Directive]]


def _directive(
    f: SupervisorFinding,
    kind: DirectiveKind,
    message: str,
    *,
    weights: dict[str, float] | None = None,
    quota_changes: dict[str, int] | None = None,
    hypothesis_ids: tuple[str, ...] = (),
    constraint: str = "",
    challenge: str = "",
) -> Directive:
    return Directive(
        DirectiveId(f"{f.id}:{kind.value}"),
        kind,
        f.id,
        message,
        weights or {},
        quota_changes or {},
        hypothesis_ids,
        constraint,
        challenge,
    )


def _widen(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
    changes = {"oppose": 1, "extreme": 1}
    return [
        _directive(
            f,
            DirectiveKind.ADJUST_SEARCH_PARAMS,
            "SEARCH pushes to the edges: oppose +1, extreme +1.",
            quota_changes=changes,
        )
    ]


def _diversify(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
    changes = {"oppose": 1, "combine": 1}
    return [
        _directive(
            f, DirectiveKind.ADJUST_SEARCH_PARAMS, "SEARCH diversifies: oppose +1, combine +1.", quota_changes=changes
        )
    ]


def _freshen(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
    return [
        _directive(
            f,
            DirectiveKind.ADJUST_SEARCH_PARAMS,
            "SEARCH moves away from known ideas: extreme +1.",
            quota_changes={"extreme": 1},
        )
    ]


def _reweight(f: SupervisorFinding, s: SupervisionState, _n: int) -> list[Directive]:
    weights = dict(s.weights)
    # Only the composite's own dimensions have a weight to halve: collinear VERIFY dimensions (CP-6)
    # are the verifier's, reported to the person with no weight change.
    damped = sorted({pair.split("~")[1] for pair in f.finding.dimensions if "~" in pair} & set(weights))
    if not damped:
        return []
    for dimension in damped:
        weights[dimension] = weights.get(dimension, 0.0) * COLLINEAR_DAMPING
    message = f"Weights of {', '.join(damped)} halved: they repeat another dimension."
    return [_directive(f, DirectiveKind.ADJUST_WEIGHTS, message, weights=weights)]


def _challenge(text: str) -> Rule:
    def rule(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
        ids = f.finding.hypothesis_ids
        return [_directive(f, DirectiveKind.INJECT_CHALLENGE, f"Red team: {text}", hypothesis_ids=ids, challenge=text)]

    return rule


def _flag(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
    ids = f.finding.hypothesis_ids
    directives = [
        _directive(
            f, DirectiveKind.FLAG_HYPOTHESIS, f"Flagged for review, not expanded: {', '.join(ids)}.", hypothesis_ids=ids
        )
    ]
    if f.finding.suggested_constraint:
        directives += _suggest(f, _s, _n)
    return directives


def _suggest(f: SupervisorFinding, _s: SupervisionState, _n: int) -> list[Directive]:
    text = f.finding.suggested_constraint
    return (
        [_directive(f, DirectiveKind.ADD_CONSTRAINT, f"Suggested constraint: {text}", constraint=text)] if text else []
    )


def _violations(f: SupervisorFinding, s: SupervisionState, batch_size: int) -> list[Directive]:
    directives = _flag(f, s, batch_size)
    if batch_size and len(f.finding.hypothesis_ids) >= batch_size and not s.paused:
        message = "Every hypothesis of the batch breaks a hard constraint: SEARCH pauses until a compliant batch or your review."
        directives.append(_directive(f, DirectiveKind.PAUSE_PIPELINE, message))
    return directives


POLICY: dict[FindingKind, Rule] = {
    FindingKind.SCORE_COMPRESSION: _widen,
    FindingKind.DIMENSION_COLLINEARITY: _reweight,
    FindingKind.SOURCE_DOMAIN_BIAS: _challenge("would this idea score as well if it came from another source domain?"),
    FindingKind.SHALLOW_REWRITE: _flag,
    FindingKind.INJECTION_SUSPECTED: _flag,
    FindingKind.DIVERSITY_COLLAPSE: _diversify,
    FindingKind.RED_TEAM_CHALLENGE: _flag,
    FindingKind.FAVOURITE_PATTERN: _challenge("is this pattern chosen for this problem, or out of habit?"),
    FindingKind.HARD_CONSTRAINT_VIOLATION: _violations,
    FindingKind.ANTI_PATTERN: _suggest,
    FindingKind.STALE_IDEA: _freshen,
}


def directives_for(findings: Sequence[SupervisorFinding], state: SupervisionState, batch_size: int) -> list[Directive]:
    """The directives the findings cause, in order (dismissed findings cause none)."""
    directives: list[Directive] = []
    for f in findings:
        rule = POLICY.get(f.finding.kind)
        if rule is not None and not f.dismissed:
            directives += rule(f, state, batch_size)
    return directives


def resume_if_clear(state: SupervisionState, findings: Sequence[SupervisorFinding], batch_size: int) -> list[Directive]:
    """RESUME when paused and this batch (non-empty) had no hard-constraint violation."""
    pausing = state.paused_by
    if pausing is None or batch_size == 0:
        return []
    if any(f.finding.kind is FindingKind.HARD_CONSTRAINT_VIOLATION for f in findings):
        return []
    kind = DirectiveKind.RESUME_PIPELINE
    return [
        Directive(DirectiveId(f"{pausing}:{kind.value}"), kind, pausing, "A compliant batch arrived: SEARCH resumes.")
    ]


def take(state: SupervisionState, directives: Sequence[Directive]) -> SupervisionState:
    for directive in directives:
        state = apply_directive(state, directive)
    return state


def search_quotas(base: Mapping[SearchOperator, int], state: SupervisionState) -> dict[SearchOperator, int]:
    """The round's operator quotas: the profile's, changed by the directives taken (only operators
    the profile limits; a quota never goes below 0)."""
    deepen = -1 if state.ck.space is Space.KNOWLEDGE else 0
    quotas = {}
    for operator, quota in base.items():
        change = state.quota_changes.get(operator.value, 0)
        if operator in (SearchOperator.OPPOSE, SearchOperator.EXTREME):
            change += deepen
        quotas[operator] = max(0, quota + change)
    return quotas


def expandable(ids: Sequence[str], state: SupervisionState) -> list[str]:
    """The hypotheses SEARCH may still expand: none while paused, never a flagged one."""
    if state.paused:
        return []
    flagged = set(state.flagged)
    return [i for i in ids if i not in flagged]
