import math

import pytest

from forge.core.verify.verdicts import (
    NOVELTY_UNVERIFIED_CAP,
    LogicVerdict,
    NoveltyEvidence,
    PositionCheck,
    QueryKind,
    VerifySample,
    VerifyStatus,
    adjust_novelty,
    average_spread,
    final_score,
    variance_confidence,
    verify_verdict,
)


def sample(a: float, b: float, c: float, novelty: float) -> VerifySample:
    return VerifySample(LogicVerdict(a, b, c), novelty)


def test_logic_passes_only_when_every_dimension_reaches_six() -> None:
    assert LogicVerdict(6, 6, 6).passed
    assert not LogicVerdict(10, 10, 5.9).passed
    assert LogicVerdict(9, 6, 3).average == pytest.approx(6.0)


def test_rejects_a_logic_score_outside_zero_to_ten() -> None:
    with pytest.raises(ValueError, match="causal_rigor"):
        LogicVerdict(5, 5, 10.5)


def test_novelty_below_six_is_not_searched_and_stands() -> None:
    verdict = adjust_novelty(5.9, [NoveltyEvidence(QueryKind.IMPLEMENTATION, 1.0)])
    assert (verdict.adjusted, verdict.searched, verdict.evidence) == (5.9, False, ())


def test_novelty_is_discounted_by_weighted_prior_art() -> None:
    evidence = [
        NoveltyEvidence(QueryKind.CONCEPT, 0.5),
        NoveltyEvidence(QueryKind.IMPLEMENTATION, 0.2),
        NoveltyEvidence(QueryKind.IMPLEMENTATION, 0.6),  # the closest result of a query counts
        NoveltyEvidence(QueryKind.CROSS_DOMAIN, 1.0),
    ]
    verdict = adjust_novelty(8.0, evidence)
    prior_art = 0.3 * 0.5 + 0.5 * 0.6 + 0.2 * 1.0
    assert verdict.prior_art == pytest.approx(prior_art)
    assert verdict.adjusted == pytest.approx(8.0 * (1 - prior_art))


def test_nothing_found_is_not_novelty_a_searched_claim_without_related_prior_art_is_capped_and_unverified() -> None:
    for evidence in ([], [NoveltyEvidence(QueryKind.CONCEPT, 0.0, "corpus://unrelated")]):
        verdict = adjust_novelty(7.0, evidence)
        assert verdict.unverified and verdict.searched and verdict.adjusted == NOVELTY_UNVERIFIED_CAP
    assert adjust_novelty(4.0, []).adjusted == 4.0 and not adjust_novelty(4.0, []).unverified  # below the cap


def test_related_prior_art_verifies_novelty_and_weighs_it() -> None:
    verdict = adjust_novelty(8.0, [NoveltyEvidence(QueryKind.CONCEPT, 0.1, "https://prior.example")])
    assert not verdict.unverified and verdict.adjusted == pytest.approx(8.0 * 0.97)


def test_final_score_weighs_logic_point_four_and_novelty_point_six() -> None:
    assert final_score(LogicVerdict(9, 6, 6), 5.0) == pytest.approx(0.4 * 7 + 0.6 * 5)


def test_identical_samples_give_full_confidence() -> None:
    samples = [sample(7, 7, 7, 7)] * 3
    assert variance_confidence(samples) == pytest.approx(1.0)


def test_variance_confidence_is_exp_of_minus_half_the_average_std() -> None:
    # Analogy validity 6, 7, 8 (population std sqrt(2/3)); the other dimensions agree.
    samples = [sample(6, 7, 7, 7), sample(7, 7, 7, 7), sample(8, 7, 7, 7)]
    spread = math.sqrt(2 / 3) / 4
    assert average_spread(samples) == pytest.approx(spread)
    assert variance_confidence(samples) == pytest.approx(math.exp(-0.5 * spread))


def test_position_check_is_inconsistent_beyond_one_point_or_across_the_pass_line() -> None:
    assert PositionCheck(7.0, 7.9).consistent
    assert not PositionCheck(7.0, 8.5).consistent
    assert not PositionCheck(6.2, 5.8).consistent


def test_inconsistent_position_decays_confidence_by_point_seven() -> None:
    samples = [sample(8, 8, 8, 8)] * 3
    verdict = verify_verdict(samples, position=PositionCheck(8.0, 9.5))
    assert verdict.position_consistent is False
    assert verdict.confidence == pytest.approx(0.7 * verdict.variance_confidence)


def test_passes_a_sound_novel_hypothesis() -> None:
    searched = [NoveltyEvidence(QueryKind.CONCEPT, 0.1, "https://prior.example")]
    verdict = verify_verdict([sample(8, 7, 7, 6)] * 3, searched, position=PositionCheck(6.4, 6.6))
    assert verdict.status is VerifyStatus.PASSED
    assert verdict.final_score == pytest.approx(0.4 * (22 / 3) + 0.6 * 6 * 0.97)


def test_fails_when_one_logic_dimension_is_below_six() -> None:
    verdict = verify_verdict([sample(9, 9, 5, 9)] * 3)
    assert verdict.status is VerifyStatus.FAILED


def test_fails_when_novelty_drags_the_final_score_below_six() -> None:
    verdict = verify_verdict([sample(7, 7, 7, 8)] * 3, [NoveltyEvidence(QueryKind.IMPLEMENTATION, 1.0)])
    assert verdict.novelty is not None and verdict.novelty.adjusted == pytest.approx(4.0)
    assert verdict.status is VerifyStatus.FAILED


def test_abstains_with_fewer_than_k_samples() -> None:
    verdict = verify_verdict([sample(9, 9, 9, 9)] * 2)
    assert verdict.status is VerifyStatus.ABSTAINED and verdict.logic is None


def test_escalates_when_the_samples_disagree_widely() -> None:
    samples = [sample(0, 0, 0, 0), sample(10, 10, 10, 10), sample(0, 10, 0, 10)]
    verdict = verify_verdict(samples)
    assert verdict.confidence < 0.5
    assert verdict.status is VerifyStatus.ESCALATED


def test_escalates_an_injected_hypothesis_whatever_its_scores() -> None:
    verdict = verify_verdict([sample(9, 9, 9, 9)] * 3, injection_detected=True)
    assert verdict.status is VerifyStatus.ESCALATED and verdict.injection_detected
