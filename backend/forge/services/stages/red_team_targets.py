"""Who the red team challenges at a checkpoint, and how deeply (seed 000 §5.3 Layer 2, §5.4).

Invariants:
    - CP-5: the top-N expandable hypotheses of the pool (gate passed, not flagged) by the
      supervisor's composite weights; CP-6: the top-N scored claims by their mean score.
    - Targets of pending injected challenges (INJECT_CHALLENGE) join the top-N, anomalous.
    - A target is anomalous when a finding of this checkpoint names it (batch-wide statistics such
      as compression name everyone and do not count), or an injected challenge targets it; units come from the
      cognitive budget's strategy (`saga_budget.allocate`), so a target the bucket cannot pay for
      is not challenged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from forge.core.hypotheses.judged_scores import model_scores, scores_of
from forge.core.hypotheses.pool import GateStatus, Hypothesis
from forge.core.saga.budget import AuditCandidate, Bucket, allocate
from forge.core.saga.observe import frame_of
from forge.core.saga.policy import expandable
from forge.core.saga.records import Checkpoint, Finding, FindingKind
from forge.core.saga.state import SupervisionState
from forge.core.session.forge_state import ForgeState
from forge.engine.saga.red_team import RedTeamTarget

# Statistics over the whole batch name every hypothesis: they make none of them more suspect than another.
BATCH_WIDE = frozenset({FindingKind.SCORE_COMPRESSION, FindingKind.DIMENSION_COLLINEARITY})
Ranked = tuple[RedTeamTarget, float, float]  # target, score 0..10, novelty 0..10


def choose_targets(
    state: ForgeState,
    cp: Checkpoint,
    sup: SupervisionState,
    pool: Sequence[Hypothesis],
    findings: Sequence[Finding],
    top_n: int,
) -> list[RedTeamTarget]:
    ranked = _claims(state) if cp is Checkpoint.CP6 else _hypotheses(state, sup, pool)
    ranked.sort(key=lambda r: -r[1])
    injected = _injected(sup)
    chosen = ranked[:top_n] + [r for r in ranked[top_n:] if r[0].id in injected]
    anomalous = {i for f in findings if f.kind not in BATCH_WIDE for i in f.hypothesis_ids} | set(injected)
    candidates = [AuditCandidate(t.id, score, novelty, t.id in anomalous) for t, score, novelty in chosen]
    units = allocate(sup.budget, Bucket.ADVERSARIAL, candidates)
    return [
        replace(t, units=int(units[t.id]), injected=tuple(injected.get(t.id, ())))
        for t, _, _ in chosen
        if t.id in units
    ]


def _injected(sup: SupervisionState) -> dict[str, list[str]]:
    questions: dict[str, list[str]] = {}
    for directive_id in sup.challenges:
        directive = sup.directive(directive_id)
        if directive is None:
            continue
        for target in directive.hypothesis_ids:
            questions.setdefault(target, []).append(directive.challenge)
    return questions


def _hypotheses(state: ForgeState, sup: SupervisionState, pool: Sequence[Hypothesis]) -> list[Ranked]:
    frame = frame_of(state)
    allowed = set(expandable([h.id for h in pool if h.gate.status is GateStatus.PASSED], sup))
    constraints = frame.hard_constraints
    judged = model_scores(state.hypothesis_scores)  # the verifier's, else word rules
    ranked: list[Ranked] = []
    for h in pool:
        if h.id not in allowed:
            continue
        s = scores_of(h, frame, judged)
        dims = {"divergence": s.divergence, "testability": s.testability, "rationale": s.rationale,
                "robustness": s.robustness, "feasibility": s.feasibility}  # fmt: skip
        score = sum(sup.weights.get(d, 0.0) * v for d, v in dims.items())
        target = RedTeamTarget(h.id, h.statement, h.mechanism, h.observable, h.failure_modes, (), constraints, 1)
        ranked.append((target, score, s.divergence))
    return ranked


def _claims(state: ForgeState) -> list[Ranked]:
    constraints = frame_of(state).hard_constraints
    ranked: list[Ranked] = []
    for c in state.all_claims:
        if c.scores is None:
            continue
        failure = (c.antithesis_text,) if c.antithesis_text else ()
        evidence = tuple(e.summary or e.title for e in c.evidence)
        mechanism = c.thesis_text or c.text
        target = RedTeamTarget(
            str(c.id), c.text, mechanism, c.falsifiability_condition, failure, evidence, constraints, 1
        )
        ranked.append((target, 10 * c.scores.mean, 10 * c.scores.novelty))
    return ranked
