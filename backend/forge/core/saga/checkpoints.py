"""The Answer Engine's eight stages on the six phases, and what its checkpoints audit that the
detectors do not (seed 000 §7.2–7.3): CP-1 constraints, CP-2 target domain, CP-3 source domains.
Also how a batch of the pool or of claims becomes a scored batch for Layer 1.

Invariants:
    - `ANSWER_STAGES` lists the eight stages in order, each on the phase where it runs in this
      product, with the checkpoint that follows it (stage 4 and 8 have none; stage 5 spans EXPLORE
      to VALIDATE, so CP-4, CP-5 and CP-6 follow its parts).
    - `CHECKPOINT_PHASE` says in which phase each checkpoint is recorded: CP-6 audits VALIDATE's
      scores when BUILD opens (the scores are final then), CP-7 audits at CRYSTALLIZE.
    - Audits here are pure functions of the frame / selection and return findings (possibly none).
    - Pool hypotheses carry the five rule-layer proxy scores of `hypothesis_scores` at CP-4/5.
    - CP-6's Layer 1 reads VERIFY's own scores (`scored_verifications`): the three logic dimensions
      and the evidence-adjusted novelty of every item VERIFY judged (the pool's ranking candidates
      and the round's claims), weighted as VERIFY's final score; an abstained verdict has none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from forge.core.domain_types import Phase, SemanticDistance
from forge.core.explore.select_source_domains import DomainSelection
from forge.core.frame.problem_frame import AuditedFrame, ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.hypotheses.scores import describe_behavior, score_hypothesis
from forge.core.saga.detectors import ScoredHypothesis
from forge.core.saga.records import Checkpoint, Finding, FindingKind, Severity
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import LOGIC_WEIGHT, NOVELTY_WEIGHT

FIELD_CONCENTRATION = 0.6
MIN_FAR_SHARE = 1 / 3


@dataclass(frozen=True, slots=True)
class AnswerStage:
    number: int
    name: str
    phase: Phase
    checkpoint: Checkpoint | None


ANSWER_STAGES: tuple[AnswerStage, ...] = (
    AnswerStage(1, "Problem frame", Phase.DECOMPOSE, Checkpoint.CP1),
    AnswerStage(2, "Target domain", Phase.EXPLORE, Checkpoint.CP2),
    AnswerStage(3, "Source domains", Phase.EXPLORE, Checkpoint.CP3),
    AnswerStage(4, "Checkpoint directives", Phase.EXPLORE, None),
    AnswerStage(5, "BISO → SEARCH → VERIFY", Phase.SYNTHESIZE, Checkpoint.CP5),
    AnswerStage(6, "Filter verified hypotheses", Phase.BUILD, Checkpoint.CP6),
    AnswerStage(7, "Solve", Phase.CRYSTALLIZE, Checkpoint.CP7),
    AnswerStage(8, "AnswerPack", Phase.CRYSTALLIZE, None),
)

CHECKPOINT_PHASE: dict[Checkpoint, Phase] = {
    Checkpoint.CP1: Phase.DECOMPOSE,
    Checkpoint.CP2: Phase.EXPLORE,
    Checkpoint.CP3: Phase.EXPLORE,
    Checkpoint.CP4: Phase.EXPLORE,
    Checkpoint.CP5: Phase.SYNTHESIZE,
    Checkpoint.CP6: Phase.BUILD,
    Checkpoint.CP7: Phase.CRYSTALLIZE,
}

CHECKPOINT_TITLE: dict[Checkpoint, str] = {
    Checkpoint.CP1: "Constraint audit",
    Checkpoint.CP2: "Target domain audit",
    Checkpoint.CP3: "Source-domain bias",
    Checkpoint.CP4: "After BISO: compression, diversity",
    Checkpoint.CP5: "After SEARCH: collapse, shallow rewrites",
    Checkpoint.CP6: "After VERIFY: collinearity, reward hacking",
    Checkpoint.CP7: "Before the answer: patterns, constraints",
}


def audit_constraints_cp1(audited: AuditedFrame) -> list[Finding]:
    severity = {"conflict": Severity.CRITICAL, "undecidable": Severity.WARNING, "duplicate": Severity.INFO}
    return [
        Finding(
            FindingKind.CONSTRAINT_AUDIT,
            float(len(f.indices)),
            0.0,
            (),
            f"{f.kind.value}: {f.message}",
            severity=severity.get(f.kind.value, Severity.WARNING),
            dimensions=(f.kind.value,),
        )
        for f in audited.audit.findings
    ]


def audit_target_domain_cp2(frame: ProblemFrame, selection: DomainSelection | None) -> list[Finding]:
    findings = []
    if not frame.domain_tags:
        findings.append(
            Finding(
                FindingKind.TARGET_DOMAIN,
                0.0,
                1.0,
                (),
                "The frame names no target domain: the engine falls back to “general”, so source domains "
                "cannot be kept at a distance from the problem's own field. Name the field in the problem.",
            )
        )
    near = [d.name for d in selection.chosen if d.band is SemanticDistance.NEAR] if selection else []
    if near:
        findings.append(
            Finding(
                FindingKind.TARGET_DOMAIN,
                float(len(near)),
                0.0,
                (),
                f"Source domains close to the target ({', '.join(near)}) give analogies the field already knows.",
                severity=Severity.INFO,
                dimensions=tuple(near),
            )
        )
    return findings


def audit_source_domains_cp3(selection: DomainSelection | None, fields: Mapping[str, str]) -> list[Finding]:
    if selection is None or not selection.chosen:
        return []
    findings = []
    counts = Counter(fields.get(d.domain_id, "unknown") for d in selection.chosen)
    top, count = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    share = count / len(selection.chosen)
    if len(selection.chosen) >= 3 and share >= FIELD_CONCENTRATION:
        findings.append(
            Finding(
                FindingKind.SOURCE_DOMAIN_BIAS,
                round(share, 4),
                FIELD_CONCENTRATION,
                (),
                f"{count} of {len(selection.chosen)} source domains come from one field ({top}): the analogies "
                "will share its blind spots.",
                dimensions=(top,),
            )
        )
    far = sum(1 for d in selection.chosen if d.band is SemanticDistance.FAR) / len(selection.chosen)
    if far < MIN_FAR_SHARE:
        findings.append(
            Finding(
                FindingKind.SOURCE_DOMAIN_BIAS,
                round(far, 4),
                round(MIN_FAR_SHARE, 4),
                (),
                f"Only {far:.0%} of the source domains are far from the problem: bisociation needs distance.",
                severity=Severity.INFO,
            )
        )
    if selection.shortfall:
        findings.append(
            Finding(FindingKind.SOURCE_DOMAIN_BIAS, 0.0, 0.0, (), selection.shortfall, severity=Severity.INFO)
        )
    return findings


def scored_hypotheses(hypotheses: Sequence[Hypothesis], frame: ProblemFrame) -> list[ScoredHypothesis]:
    batch = []
    for h in hypotheses:
        s = score_hypothesis(h, frame)
        scores = {
            "divergence": s.divergence,
            "testability": s.testability,
            "rationale": s.rationale,
            "robustness": s.robustness,
            "feasibility": s.feasibility,
        }
        text = f"{h.statement} {h.mechanism}"
        batch.append(
            ScoredHypothesis(h.id, h.domain_name, text, scores, h.parents, describe_behavior(h).mechanism_family)
        )
    return batch


# VERIFY's final score as a composite of its four dimensions (`verdicts.final_score`).
VERIFY_WEIGHTS: dict[str, float] = {
    "analogy_validity": LOGIC_WEIGHT / 3,
    "internal_consistency": LOGIC_WEIGHT / 3,
    "causal_rigor": LOGIC_WEIGHT / 3,
    "novelty": NOVELTY_WEIGHT,
}


@dataclass(frozen=True, slots=True)
class VerifiedItem:
    """One item VERIFY judged: a pool hypothesis or a claim, with the source domain it came from."""

    id: str
    domain: str
    text: str
    verification: ClaimVerification


def scored_verifications(items: Sequence[VerifiedItem]) -> list[ScoredHypothesis]:
    """The verifier's four scores per judged item (0..10); abstained verdicts carry none and are left out."""
    batch = []
    for item in items:
        v = item.verification
        if v.logic is None or v.novelty is None:
            continue
        scores = {
            "analogy_validity": v.logic.analogy_validity,
            "internal_consistency": v.logic.internal_consistency,
            "causal_rigor": v.logic.causal_rigor,
            "novelty": v.novelty.adjusted,
        }
        batch.append(ScoredHypothesis(item.id, item.domain, item.text, scores))
    return batch
