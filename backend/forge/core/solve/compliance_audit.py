"""The hard-constraint compliance audit (seed 000 §6.4): after the Talker writes a solution, each
hard constraint is judged against it; violations trigger up to MAX_REVISIONS revisions, and a
solution still violating one is reported as such — never returned as compliant.

Invariants:
    - `complete_checks` gives exactly one check per hard constraint, in the library's order: a
      constraint the auditor did not judge is UNCLEAR ("no verdict"), never a silent pass.
    - `decide` is the whole policy: no violation → ACCEPT; a violation with revisions left →
      REVISE (with the violations to fix); otherwise → REPORT.
    - `ComplianceResult.status` is COMPLIANT only when every check passed, UNVERIFIED when none
      failed but some could not be judged, VIOLATION when any failed after the last revision.
    - A violation carries what relaxing its constraint would allow, as the auditor said it (empty
      when it did not); a pass or an unclear check never carries one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.solve.constraints import ConstraintOrigin, ConstraintSpec

MAX_REVISIONS = 2


class ComplianceVerdict(str, Enum):
    PASS = "pass"
    VIOLATION = "violation"
    UNCLEAR = "unclear"


@dataclass(frozen=True, slots=True)
class JudgedConstraint:
    """What an auditor said about one constraint (by its position in the audited list)."""

    index: int
    verdict: ComplianceVerdict
    reason: str
    relaxing_allows: str = ""  # for a violation: what the solution gains by breaking it


@dataclass(frozen=True, slots=True)
class ComplianceCheck:
    constraint: str
    origin: ConstraintOrigin
    verdict: ComplianceVerdict
    reason: str
    relaxing_allows: str = ""  # a violation's: what relaxing the constraint would allow


class ComplianceStatus(str, Enum):
    COMPLIANT = "compliant"
    UNVERIFIED = "unverified"
    VIOLATION = "violation"


@dataclass(frozen=True, slots=True)
class ComplianceResult:
    status: ComplianceStatus
    checks: tuple[ComplianceCheck, ...]
    revisions: int

    @property
    def violations(self) -> tuple[ComplianceCheck, ...]:
        return tuple(c for c in self.checks if c.verdict is ComplianceVerdict.VIOLATION)


class Decision(str, Enum):
    ACCEPT = "accept"
    REVISE = "revise"
    REPORT = "report"


def complete_checks(hard: Sequence[ConstraintSpec], judged: Sequence[JudgedConstraint]) -> tuple[ComplianceCheck, ...]:
    by_index: dict[int, JudgedConstraint] = {}
    for j in judged:
        by_index.setdefault(j.index, j)
    checks = []
    for i, spec in enumerate(hard):
        found = by_index.get(i)
        if found is None:
            checks.append(
                ComplianceCheck(spec.text, spec.origin, ComplianceVerdict.UNCLEAR, "The auditor gave no verdict.")
            )
        else:
            relaxing = found.relaxing_allows.strip() if found.verdict is ComplianceVerdict.VIOLATION else ""
            checks.append(ComplianceCheck(spec.text, spec.origin, found.verdict, found.reason.strip(), relaxing))
    return tuple(checks)


def decide(checks: Sequence[ComplianceCheck], revisions_done: int, max_revisions: int = MAX_REVISIONS) -> Decision:
    if not any(c.verdict is ComplianceVerdict.VIOLATION for c in checks):
        return Decision.ACCEPT
    return Decision.REVISE if revisions_done < max_revisions else Decision.REPORT


def compliance_result(checks: Sequence[ComplianceCheck], revisions: int) -> ComplianceResult:
    verdicts = {c.verdict for c in checks}
    if ComplianceVerdict.VIOLATION in verdicts:
        status = ComplianceStatus.VIOLATION
    elif ComplianceVerdict.UNCLEAR in verdicts:
        status = ComplianceStatus.UNVERIFIED
    else:
        status = ComplianceStatus.COMPLIANT
    return ComplianceResult(status, tuple(checks), revisions)
