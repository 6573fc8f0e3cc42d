"""What Solve reads of the session's record beyond the claims' own text (seed 000 §6.2 steps 2–4):
the independent verifier's verdict on each claim, the red-team challenges a claim or a pool
hypothesis failed, and the prompt lines that show them.

Invariants:
    - Pure: built from `ForgeState.verifications` and the supervisor's findings, nothing else.
    - A red-team failure is a RED_TEAM_CHALLENGE finding the person did not dismiss. It belongs to a
      claim when it targets the claim's id or one of the pool hypotheses the claim came from
      (`Claim.hypothesis_ids`); the others stay in `unattached_failures`, so none is lost.
    - A claim VERIFY never judged says so ("not run"): an absent verdict never reads as a pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from forge.core.domain_types import ClaimId
from forge.core.saga.records import FindingKind
from forge.core.saga.state import SupervisionState
from forge.core.session.records import Claim
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import FINAL_PASS_THRESHOLD, VerifyStatus


@dataclass(frozen=True, slots=True)
class RedTeamFailure:
    """A challenge the red team put to its targets and they did not withstand."""

    checkpoint: str
    targets: tuple[str, ...]  # claim ids (CP-6) or pool hypothesis ids (CP-5)
    challenge: str


@dataclass(frozen=True, slots=True)
class ClaimChecks:
    """What was done to one claim after it was written: VERIFY's verdict and the challenges it failed."""

    claim_id: ClaimId
    verification: ClaimVerification | None
    red_team: tuple[RedTeamFailure, ...] = ()

    @property
    def weakened(self) -> bool:
        """VERIFY did not pass it, or a red-team challenge broke it."""
        failed = self.verification is not None and self.verification.status is not VerifyStatus.PASSED
        return failed or bool(self.red_team)


def red_team_failures(supervision: SupervisionState | None) -> tuple[RedTeamFailure, ...]:
    if supervision is None:
        return ()
    return tuple(
        RedTeamFailure(f.checkpoint.value, f.finding.hypothesis_ids, f.finding.message)
        for f in supervision.findings
        if f.finding.kind is FindingKind.RED_TEAM_CHALLENGE and not f.dismissed
    )


def _targets_of(claim: Claim) -> frozenset[str]:
    return frozenset((str(claim.id), *claim.hypothesis_ids))


def claim_checks(
    claims: Sequence[Claim],
    verifications: Mapping[ClaimId, ClaimVerification],
    failures: Sequence[RedTeamFailure],
) -> tuple[ClaimChecks, ...]:
    """One ClaimChecks per claim, in the claims' order."""
    return tuple(
        ClaimChecks(
            c.id,
            verifications.get(c.id),
            tuple(f for f in failures if _targets_of(c).intersection(f.targets)),
        )
        for c in claims
    )


def unattached_failures(claims: Sequence[Claim], failures: Sequence[RedTeamFailure]) -> tuple[RedTeamFailure, ...]:
    """The failures that target none of the claims (pool hypotheses no claim came from)."""
    targets = frozenset().union(*(_targets_of(c) for c in claims)) if claims else frozenset()
    return tuple(f for f in failures if not targets.intersection(f.targets))


def verify_line(verification: ClaimVerification | None) -> str:
    """VERIFY's verdict on a claim in one line of a prompt."""
    if verification is None:
        return "VERIFY: not run on this claim (no independent verdict)"
    v = verification
    logic = "" if v.logic is None else f", logic {'passed' if v.logic.passed else 'failed'}"
    novelty = "" if v.novelty is None else f", novelty {v.novelty.adjusted:.1f}"
    flags = (", position bias" if v.position_consistent is False else "") + (
        ", prompt injection flagged" if v.injection else ""
    )
    return (
        f"VERIFY ({v.verifier}): {v.status.value} — final score {v.final_score:.1f} "
        f"(passes at {FINAL_PASS_THRESHOLD:.1f}){logic}{novelty}, confidence {v.confidence:.2f}{flags}"
    )
