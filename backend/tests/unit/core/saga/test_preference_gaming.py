"""The preference-gaming check: the generator's claim scores against the verifier's, claim by claim;
a finding only over at least five claims whose mean signed difference reaches the threshold."""

from forge.core.domain_types import ClaimId, ClaimType, Phase
from forge.core.saga.preference_gaming import (
    GAMING_THRESHOLD,
    MIN_ITEMS,
    ScorePair,
    claim_pairs,
    detect_preference_gaming,
)
from forge.core.saga.records import FindingKind
from forge.core.session.records import Claim, ClaimScores
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import LogicVerdict, NoveltyVerdict, VerifyStatus


def claim(n: int, novelty: float, groundedness: float) -> Claim:
    scores = ClaimScores(novelty, groundedness, 0.5, 0.5)
    return Claim(ClaimId(f"c{n}"), f"claim {n}", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, scores=scores)


def verdict(n: int, novelty: float | None, logic: float) -> ClaimVerification:
    judged = NoveltyVerdict(novelty, novelty, False, 0.0, ()) if novelty is not None else None
    return ClaimVerification(
        ClaimId(f"c{n}"), "verifier-model", VerifyStatus.PASSED, 6.0, LogicVerdict(logic, logic, logic), judged,
        1.0, 1.0, None, None, (), 3, (), "because",
    )  # fmt: skip


def test_pairs_compare_novelty_and_soundness_on_one_scale_and_skip_unjudged_claims() -> None:
    claims = [claim(1, 0.9, 0.7), claim(2, 0.5, 0.5), claim(3, 0.5, 0.5)]
    verifications = {ClaimId("c1"): verdict(1, 4.0, 5.0), ClaimId("c2"): verdict(2, None, 5.0)}
    assert claim_pairs(claims, verifications) == [ScorePair("c1", 8.0, 4.5)]


def test_a_generator_that_rates_itself_higher_over_five_claims_is_a_finding() -> None:
    pairs = [ScorePair(f"c{n}", 8.0 + 0.1 * n, 5.0) for n in range(MIN_ITEMS)]
    found = detect_preference_gaming(pairs, "gen-model", "verifier-model")
    assert found is not None and found.kind is FindingKind.PREFERENCE_GAMING and found.layer == 1
    assert found.statistic == 3.2 and found.threshold == GAMING_THRESHOLD
    assert found.hypothesis_ids == tuple(f"c{n}" for n in range(MIN_ITEMS))
    assert "gen-model" in found.message and "3.2 points higher" in found.message


def test_too_few_claims_or_a_small_mean_difference_is_no_finding() -> None:
    few = [ScorePair(f"c{n}", 9.0, 2.0) for n in range(MIN_ITEMS - 1)]
    assert detect_preference_gaming(few, "g", "v") is None
    mixed = [ScorePair(f"c{n}", 9.0 if n % 2 else 2.0, 5.0) for n in range(6)]  # +4, -3 ... mean +0.5
    assert detect_preference_gaming(mixed, "g", "v") is None
    lower = [ScorePair(f"c{n}", 2.0, 6.0) for n in range(6)]
    found = detect_preference_gaming(lower, "g", "v")
    assert found is not None and found.statistic == -4.0 and "lower" in found.message
