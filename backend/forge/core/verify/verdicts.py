"""VERIFY's arithmetic (seed 000 §4.3.1, §4.3.3): logic verdict, evidence-adjusted novelty, the final
score, multi-sample confidence, the position-bias check and the VerifyStatus — pure functions over
what the verifier model (or the offline verifier) returned.

Invariants:
    - Every score lies in [0, 10]; the logic verdict passes only when all three dimensions are
      ≥ LOGIC_PASS_THRESHOLD (6.0).
    - Novelty: a preliminary score below NOVELTY_SEARCH_THRESHOLD (6.0) stands as is (no research is
      run for it); from 6.0 up, the three research queries weigh the prior art found — concept .3,
      implementation .5, cross-domain .2, each the similarity in [0, 1] of the closest result (a
      query that found nothing counts 0) — and adjusted = preliminary × (1 − weighted prior art).
    - "Nothing found" is not novelty: a searched claim whose queries found no result related to it
      (no evidence with similarity > 0: nothing returned, or nothing the judge found about the claim)
      is `unverified`, and its adjusted novelty is at most NOVELTY_UNVERIFIED_CAP (the scale's
      midpoint: neither shown new nor shown known), so an empty search never scores as "novel".
    - final_score = .4 · logic average + .6 · novelty (adjusted).
    - Confidence: k = 3 independent samples; avg_std = the mean over the four scored dimensions
      (three logic dims + preliminary novelty) of their population standard deviation;
      variance_confidence = exp(−0.5 · avg_std). The position check (the same material judged in
      forward and reversed order) is inconsistent when the two final scores differ by more than
      POSITION_TOLERANCE or fall on opposite sides of the pass line; inconsistency × 0.7.
    - Status, first match wins: fewer than k samples → ABSTAINED (the verifier could not assess);
      a prompt injection in the verifier's inputs or confidence < ESCALATE_BELOW → ESCALATED (a
      person decides); logic passed and final ≥ FINAL_PASS_THRESHOLD → PASSED; else FAILED.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

LOGIC_PASS_THRESHOLD = 6.0
NOVELTY_SEARCH_THRESHOLD = 6.0
LOGIC_WEIGHT = 0.4
NOVELTY_WEIGHT = 0.6
K_SAMPLES = 3
POSITION_BIAS_DECAY = 0.7
POSITION_TOLERANCE = 1.0
ESCALATE_BELOW = 0.5
FINAL_PASS_THRESHOLD = 6.0
NOVELTY_UNVERIFIED_CAP = 5.0


class QueryKind(str, Enum):
    CONCEPT = "concept"
    IMPLEMENTATION = "implementation"
    CROSS_DOMAIN = "cross_domain"


EVIDENCE_WEIGHTS: dict[QueryKind, float] = {
    QueryKind.CONCEPT: 0.3,
    QueryKind.IMPLEMENTATION: 0.5,
    QueryKind.CROSS_DOMAIN: 0.2,
}


class VerifyStatus(str, Enum):
    PASSED = "passed"
    FAILED = "failed"
    ESCALATED = "escalated"
    ABSTAINED = "abstained"


def _check_score(name: str, value: float) -> None:
    if not 0.0 <= value <= 10.0:
        raise ValueError(f"{name} must lie in [0, 10], got {value}")


@dataclass(frozen=True, slots=True)
class LogicVerdict:
    analogy_validity: float
    internal_consistency: float
    causal_rigor: float

    def __post_init__(self) -> None:
        for name in ("analogy_validity", "internal_consistency", "causal_rigor"):
            _check_score(name, getattr(self, name))

    @property
    def dims(self) -> tuple[float, float, float]:
        return (self.analogy_validity, self.internal_consistency, self.causal_rigor)

    @property
    def average(self) -> float:
        return sum(self.dims) / 3

    @property
    def passed(self) -> bool:
        return all(d >= LOGIC_PASS_THRESHOLD for d in self.dims)


@dataclass(frozen=True, slots=True)
class NoveltyEvidence:
    """The closest result one research query found: how much of the hypothesis it already says."""

    kind: QueryKind
    prior_art_similarity: float  # 0 = nothing like it, 1 = the same idea
    reference: str = ""  # title or URL of that result, for the breakdown

    def __post_init__(self) -> None:
        if not 0.0 <= self.prior_art_similarity <= 1.0:
            raise ValueError(f"prior_art_similarity must lie in [0, 1], got {self.prior_art_similarity}")


@dataclass(frozen=True, slots=True)
class NoveltyVerdict:
    preliminary: float
    adjusted: float
    searched: bool  # whether research weighed in (preliminary ≥ 6)
    prior_art: float  # the weighted prior art in [0, 1]
    evidence: tuple[NoveltyEvidence, ...]
    unverified: bool = False  # searched, and nothing related was found: capped, not "novel"


@dataclass(frozen=True, slots=True)
class VerifySample:
    """One independent scoring of a hypothesis by the verifier."""

    logic: LogicVerdict
    novelty: float  # preliminary novelty, 0..10

    def __post_init__(self) -> None:
        _check_score("novelty", self.novelty)


@dataclass(frozen=True, slots=True)
class PositionCheck:
    forward: float  # final score with the material in its order
    reversed: float  # final score with the material in reversed order

    @property
    def consistent(self) -> bool:
        same_side = (self.forward >= FINAL_PASS_THRESHOLD) == (self.reversed >= FINAL_PASS_THRESHOLD)
        return same_side and abs(self.forward - self.reversed) <= POSITION_TOLERANCE


@dataclass(frozen=True, slots=True)
class VerifyVerdict:
    status: VerifyStatus
    logic: LogicVerdict | None  # the samples' mean, None when abstained
    novelty: NoveltyVerdict | None
    final_score: float
    variance_confidence: float
    confidence: float  # variance confidence after the position-bias decay
    position_consistent: bool | None  # None when no position check ran
    injection_detected: bool
    samples: int


def adjust_novelty(preliminary: float, evidence: Sequence[NoveltyEvidence]) -> NoveltyVerdict:
    _check_score("preliminary novelty", preliminary)
    if preliminary < NOVELTY_SEARCH_THRESHOLD:
        return NoveltyVerdict(preliminary, preliminary, False, 0.0, ())
    closest: dict[QueryKind, float] = {}
    for item in evidence:
        closest[item.kind] = max(closest.get(item.kind, 0.0), item.prior_art_similarity)
    prior_art = sum(EVIDENCE_WEIGHTS[kind] * similarity for kind, similarity in closest.items())
    if not any(similarity > 0 for similarity in closest.values()):
        return NoveltyVerdict(preliminary, min(preliminary, NOVELTY_UNVERIFIED_CAP), True, 0.0, tuple(evidence), True)
    return NoveltyVerdict(preliminary, preliminary * (1.0 - prior_art), True, prior_art, tuple(evidence))


def final_score(logic: LogicVerdict, novelty: float) -> float:
    return LOGIC_WEIGHT * logic.average + NOVELTY_WEIGHT * novelty


def average_spread(samples: Sequence[VerifySample]) -> float:
    """Mean over the four scored dimensions of their population standard deviation across samples."""
    columns = list(zip(*((*s.logic.dims, s.novelty) for s in samples), strict=True))
    return float(sum(statistics.pstdev(column) for column in columns)) / len(columns)


def variance_confidence(samples: Sequence[VerifySample]) -> float:
    if not samples:
        raise ValueError("confidence needs at least one sample")
    return math.exp(-0.5 * average_spread(samples))


def mean_logic(samples: Sequence[VerifySample]) -> LogicVerdict:
    return LogicVerdict(*(statistics.fmean(d) for d in zip(*(s.logic.dims for s in samples), strict=True)))


def verify_verdict(
    samples: Sequence[VerifySample],
    evidence: Sequence[NoveltyEvidence] = (),
    position: PositionCheck | None = None,
    injection_detected: bool = False,
    k: int = K_SAMPLES,
) -> VerifyVerdict:
    if len(samples) < k:
        return VerifyVerdict(VerifyStatus.ABSTAINED, None, None, 0.0, 0.0, 0.0, None, injection_detected, len(samples))
    logic = mean_logic(samples)
    novelty = adjust_novelty(statistics.fmean(s.novelty for s in samples), evidence)
    score = final_score(logic, novelty.adjusted)
    spread_confidence = variance_confidence(samples)
    consistent = None if position is None else position.consistent
    confidence = spread_confidence * (POSITION_BIAS_DECAY if consistent is False else 1.0)
    if injection_detected or confidence < ESCALATE_BELOW:
        status = VerifyStatus.ESCALATED
    elif logic.passed and score >= FINAL_PASS_THRESHOLD:
        status = VerifyStatus.PASSED
    else:
        status = VerifyStatus.FAILED
    return VerifyVerdict(
        status, logic, novelty, score, spread_confidence, confidence, consistent, injection_detected, len(samples)
    )
