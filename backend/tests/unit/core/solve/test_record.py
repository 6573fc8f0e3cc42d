"""What Solve reads of the record beyond the claims: VERIFY's verdict per claim and the red-team
challenges it failed (by the claim's id or the pool hypotheses it came from); the others are kept
apart; a claim VERIFY never judged reads "not run", never as a pass."""

from __future__ import annotations

from uuid import UUID

from forge.core.domain_types import ClaimId, ClaimType, Phase
from forge.core.saga.records import Checkpoint, Finding, FindingId, FindingKind, SupervisorFinding
from forge.core.saga.state import SupervisionState
from forge.core.session.records import Claim
from forge.core.solve.record import (
    RedTeamFailure,
    claim_checks,
    red_team_failures,
    unattached_failures,
    verify_line,
)
from forge.core.verify.claim_verification import ClaimVerification, VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, VerifySample

FIRST, SECOND = ClaimId(UUID(int=1)), ClaimId(UUID(int=2))
CLAIMS = (
    Claim(FIRST, "Smooth the peak", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, hypothesis_ids=("search-0-1-refine",)),
    Claim(SECOND, "Open a fast track", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE),
)


def finding(n: int, kind: FindingKind, target: str, dismissed: bool = False) -> SupervisorFinding:
    return SupervisorFinding(
        FindingId(f"f{n}"), Checkpoint.CP5, 0, Finding(kind, 1, 0.5, (target,), f"message {n}"), dismissed
    )


def verified(logic: float, claim_id: ClaimId = FIRST) -> ClaimVerification:
    sample = VerifySample(LogicVerdict(logic, logic, logic), 5.0)
    return compose_verification(VerifyInputs(claim_id, "verifier", (sample,) * 3))


def test_only_red_team_challenges_the_person_kept_are_failures() -> None:
    supervision = SupervisionState(
        findings=(
            finding(1, FindingKind.RED_TEAM_CHALLENGE, "search-0-1-refine"),
            finding(2, FindingKind.RED_TEAM_CHALLENGE, str(SECOND), dismissed=True),
            finding(3, FindingKind.SCORE_COMPRESSION, str(SECOND)),
        )
    )
    assert red_team_failures(supervision) == (RedTeamFailure("CP-5", ("search-0-1-refine",), "message 1"),)
    assert red_team_failures(None) == ()


def test_a_failure_belongs_to_the_claim_it_targets_or_whose_hypothesis_it_targets() -> None:
    on_hypothesis = RedTeamFailure("CP-5", ("search-0-1-refine",), "reduces to adding beds")
    on_claim = RedTeamFailure("CP-6", (str(SECOND),), "a surge breaks it")
    elsewhere = RedTeamFailure("CP-5", ("biso-0-x-1",), "surface analogy")
    failures = (on_hypothesis, on_claim, elsewhere)
    checks = claim_checks(CLAIMS, {FIRST: verified(8.0)}, failures)
    assert [(c.claim_id, c.red_team) for c in checks] == [(FIRST, (on_hypothesis,)), (SECOND, (on_claim,))]
    assert unattached_failures(CLAIMS, failures) == (elsewhere,)
    assert unattached_failures((), failures) == failures


def test_a_claim_is_weakened_by_a_verdict_other_than_passed_or_a_failed_challenge() -> None:
    assert not claim_checks(CLAIMS[:1], {FIRST: verified(8.0)}, ())[0].weakened
    assert claim_checks(CLAIMS[:1], {FIRST: verified(3.0)}, ())[0].weakened
    assert not claim_checks(CLAIMS[:1], {}, ())[0].weakened  # not judged: no verdict, not a failure either


def test_the_verify_line_says_the_status_score_threshold_and_logic_or_that_verify_did_not_run() -> None:
    assert verify_line(verified(8.0)) == (
        "VERIFY (verifier): passed — final score 6.2 (passes at 6.0), logic passed, novelty 5.0, confidence 1.00"
    )
    assert verify_line(None) == "VERIFY: not run on this claim (no independent verdict)"
