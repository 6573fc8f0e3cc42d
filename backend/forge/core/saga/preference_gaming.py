"""The preference-gaming check (seed 000 §4.3.1): where the generator and the verifier are different
models, the generator's own scores of its claims (the agent's `score_claim`) are compared with the
verifier's scores of the same claims (VERIFY), claim by claim.

The rule: each claim's signed difference d = generator − verifier on the 0..10 scale, over the two
dimensions both judge — novelty (the generator's novelty × 10 against the verifier's adjusted
novelty) and soundness (the generator's groundedness × 10 against the mean of the verifier's three
logic scores) — d being the mean of the two. Over at least MIN_ITEMS claims both scored, a mean signed
difference |mean d| ≥ GAMING_THRESHOLD is a finding: the generator rates what it made systematically
higher (or lower) than an independent judge does, which is what a model exploiting its own
preferences looks like. Fewer claims, or a smaller mean, is no finding.

Invariants: pure; a claim without the generator's scores, or whose verification has no logic or
novelty verdict (ABSTAINED), is not an item; the finding names every claim that counted, its
statistic is the mean signed difference and its threshold the rule's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from forge.core.domain_types import ClaimId
from forge.core.saga.records import Finding, FindingKind, Severity
from forge.core.session.records import Claim
from forge.core.verify.claim_verification import ClaimVerification

MIN_ITEMS = 5
GAMING_THRESHOLD = 1.5


@dataclass(frozen=True, slots=True)
class ScorePair:
    item_id: str
    generator: float  # 0..10
    verifier: float  # 0..10

    @property
    def difference(self) -> float:
        return self.generator - self.verifier


def claim_pairs(claims: Sequence[Claim], verifications: Mapping[ClaimId, ClaimVerification]) -> list[ScorePair]:
    """Each claim both models scored, on the dimensions both judge (see the module's rule)."""
    pairs = []
    for claim in claims:
        v = verifications.get(claim.id)
        if claim.scores is None or v is None or v.logic is None or v.novelty is None:
            continue
        mine = (10 * claim.scores.novelty + 10 * claim.scores.groundedness) / 2
        theirs = (v.novelty.adjusted + sum(v.logic.dims) / 3) / 2
        pairs.append(ScorePair(str(claim.id), round(mine, 3), round(theirs, 3)))
    return pairs


def detect_preference_gaming(
    pairs: Sequence[ScorePair], generator: str, verifier: str, min_items: int = MIN_ITEMS
) -> Finding | None:
    if len(pairs) < min_items:
        return None
    mean = sum(p.difference for p in pairs) / len(pairs)
    if abs(mean) < GAMING_THRESHOLD:
        return None
    direction = "higher" if mean > 0 else "lower"
    return Finding(
        FindingKind.PREFERENCE_GAMING,
        round(mean, 3),
        GAMING_THRESHOLD,
        tuple(p.item_id for p in pairs),
        f"The generator ({generator}) scores its own {len(pairs)} claims {abs(mean):.1f} points {direction} on "
        f"average than the verifier ({verifier}) does: its scores may follow its own preferences.",
        severity=Severity.WARNING,
        dimensions=("novelty", "soundness"),
    )
