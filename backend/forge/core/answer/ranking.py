"""The AnswerPack's hypothesis ranking after seed 000 §7 stage 6: only hypotheses the independent
verifier passed rank; the candidates it checked and did not pass are listed apart with their status.

Invariants:
    - Pure. `ranking_candidates` is the one ordering both VERIFY (which hypotheses it checks before
      Solve) and the pack (what it ranks) use: the rule-layer composite, gate-passed hypotheses
      before failed ones, ties by pool order, at most RANKING_SIZE.
    - A hypothesis ranks only when its verification's status is PASSED; a row's `verify_status` is
      the verifier's status, or "unverified" when VERIFY never judged it — never a made-up pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from forge.core.answer.pack import RankedHypothesis
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis
from forge.core.hypotheses.scores import score_hypothesis
from forge.core.selection.composite_score import composite_score
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import VerifyStatus

RANKING_SIZE = 5
UNVERIFIED = "unverified"


def _ordered(hypotheses: Sequence[Hypothesis], frame: ProblemFrame) -> list[tuple[float, Hypothesis]]:
    scored = [(round(composite_score(score_hypothesis(h, frame)), 2), i, h) for i, h in enumerate(hypotheses)]
    scored.sort(key=lambda t: (t[2].gate.status is not GateStatus.PASSED, -t[0], t[1]))
    return [(score, h) for score, _, h in scored]


def ranking_candidates(
    hypotheses: Sequence[Hypothesis], frame: ProblemFrame, size: int = RANKING_SIZE
) -> tuple[Hypothesis, ...]:
    """The hypotheses the ranking would show, best first: the ones VERIFY checks before Solve."""
    return tuple(h for _, h in _ordered(hypotheses, frame)[:size])


def _row(h: Hypothesis, score: float, verification: ClaimVerification | None) -> RankedHypothesis:
    status = verification.status.value if verification is not None else UNVERIFIED
    final = round(verification.final_score, 2) if verification is not None and verification.logic else None
    row = RankedHypothesis(h.id, h.title, h.domain_name, h.statement, score, h.gate.status.value, status, final)
    if verification is None:
        return row
    unverified = verification.novelty is not None and verification.novelty.unverified
    scopes = sorted({s.scope.value for s in verification.prior_art_searches})
    return replace(row, novelty_unverified=unverified, prior_art_searched=",".join(scopes))


def rank_verified(
    hypotheses: Sequence[Hypothesis], frame: ProblemFrame, verifications: Mapping[str, ClaimVerification]
) -> tuple[tuple[RankedHypothesis, ...], tuple[RankedHypothesis, ...]]:
    """(ranked: the verified hypotheses, best composite first; unranked: the candidates that did not pass)."""
    ordered = _ordered(hypotheses, frame)
    passed = [
        _row(h, score, v)
        for score, h in ordered
        if (v := verifications.get(h.id)) is not None and v.status is VerifyStatus.PASSED
    ]
    ranked = sorted(passed, key=lambda r: -r.score)[:RANKING_SIZE]
    unranked = [
        _row(h, score, verifications.get(h.id))
        for score, h in ordered[:RANKING_SIZE]
        if not any(r.id == h.id for r in ranked)
    ]
    return tuple(ranked), tuple(unranked)
