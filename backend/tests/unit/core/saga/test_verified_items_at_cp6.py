"""CP-6 reads VERIFY's own scores over every item it judged (the pool's ranking candidates and the
claims): five or more items, so compression and collinearity can fire; a position-inconsistent
verdict is reported to the slow agent as VERIFY_POSITION_INCONSISTENT."""

from __future__ import annotations

from forge.core.domain_types import ClaimId, Phase
from forge.core.saga.observe import observe_verified
from forge.core.saga.records import Checkpoint, DirectiveKind, FastEvent, FindingKind
from forge.core.saga.state import SupervisionState
from forge.core.saga.supervise import run_checkpoint
from forge.core.session.forge_state import ForgeState
from forge.core.verify.claim_verification import ClaimVerification, VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, PositionCheck, VerifySample


def verdict(item: str, level: float, position: PositionCheck | None = None, novelty: float = 5.0) -> ClaimVerification:
    """Three samples of one level on every logic dimension (they move together: collinear)."""
    sample = VerifySample(LogicVerdict(level, level, level), novelty)
    return compose_verification(VerifyInputs(ClaimId(item), "verifier", (sample, sample, sample), position=position))


def test_six_judged_hypotheses_with_safe_middle_scores_fire_compression_and_collinearity() -> None:
    state = ForgeState(problem="p", current_phase=Phase.BUILD)
    state.hypothesis_verifications = {f"h{n}": verdict(f"h{n}", 5.0 + 0.1 * n) for n in range(6)}
    observed = observe_verified(state, (), ())
    kinds = {f.kind for f in observed.findings}
    assert {FindingKind.SCORE_COMPRESSION, FindingKind.DIMENSION_COLLINEARITY} <= kinds
    compression = next(f for f in observed.findings if f.kind is FindingKind.SCORE_COMPRESSION)
    assert set(compression.hypothesis_ids) == {f"h{n}" for n in range(6)}
    assert observed.batch_size == 6
    assert observed.fast_events == (FastEvent.VERIFY_BATCH_SCORED,)


def test_collinear_verifier_dimensions_change_no_composite_weight() -> None:
    state = ForgeState(problem="p", current_phase=Phase.BUILD)
    state.hypothesis_verifications = {f"h{n}": verdict(f"h{n}", 2.0 + n, novelty=2.0 + n) for n in range(6)}
    observed = observe_verified(state, (), ())
    assert [f.kind for f in observed.findings] == [FindingKind.DIMENSION_COLLINEARITY]
    result = run_checkpoint(SupervisionState(), Checkpoint.CP6, 0, observed.findings, observed.batch_size)
    assert result.findings  # shown to the person
    assert all(d.kind is not DirectiveKind.ADJUST_WEIGHTS for d in result.directives)
    assert result.state.weights == SupervisionState().weights


def test_three_items_are_too_few_and_a_position_flip_is_reported() -> None:
    state = ForgeState(problem="p", current_phase=Phase.BUILD)
    flipped = PositionCheck(forward=7.0, reversed=3.0)
    state.hypothesis_verifications = {"h0": verdict("h0", 5.0, flipped), "h1": verdict("h1", 5.0)}
    state.hypothesis_verifications["h2"] = verdict("h2", 5.1)
    observed = observe_verified(state, (), ())
    assert observed.findings == ()  # below the statistics' minimum batch: no guess
    assert FastEvent.VERIFY_POSITION_INCONSISTENT in observed.fast_events
