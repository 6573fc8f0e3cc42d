"""SAGA's vocabulary (seed 000 §5.3, §7.3): the fast path's events, the slow agent's findings and
directives, the Answer Engine's checkpoints — typed values, with wire spellings.

Invariants:
    - Every enum is a `str` enum whose value is the wire spelling (upper-case for the seed's event
      and directive names, lower-case for finding kinds and checkpoints' phases).
    - A `Finding` is what a detector saw (statistic vs threshold, the hypotheses involved, a message a
      person can read); a `SupervisorFinding` is a finding recorded at a checkpoint with a stable id
      (`<checkpoint>-r<round>-<kind>[-<n>]`), so a resumed run that repeats a checkpoint records the
      same ids.
    - A `Directive` always names the finding that caused it (`finding_id`), except RESUME_PIPELINE
      which names the finding whose pause it lifts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NewType

FindingId = NewType("FindingId", str)
DirectiveId = NewType("DirectiveId", str)


class FastEvent(str, Enum):
    """What the fast path (BISO → SEARCH → VERIFY) reports to the slow agent (§5.3)."""

    BISO_COMPLETED = "BISO_COMPLETED"
    SEARCH_ROUND_COMPLETED = "SEARCH_ROUND_COMPLETED"
    VERIFY_BATCH_SCORED = "VERIFY_BATCH_SCORED"
    HKG_PATH_FOUND = "HKG_PATH_FOUND"
    HKG_PATH_NOT_FOUND = "HKG_PATH_NOT_FOUND"
    MAPPING_PADDING_SUSPECTED = "MAPPING_PADDING_SUSPECTED"
    VERIFY_POSITION_INCONSISTENT = "VERIFY_POSITION_INCONSISTENT"
    VERIFY_INJECTION_DETECTED = "VERIFY_INJECTION_DETECTED"
    BLEND_EXPAND_COMPLETED = "BLEND_EXPAND_COMPLETED"
    TRANSFORM_PROPOSED = "TRANSFORM_PROPOSED"
    TRANSFORM_ACCEPTED_OR_REJECTED = "TRANSFORM_ACCEPTED_OR_REJECTED"
    CONSTRAINT_VIOLATION_FOUND = "CONSTRAINT_VIOLATION_FOUND"
    CONSTRAINT_PATCH_APPLIED = "CONSTRAINT_PATCH_APPLIED"


class FindingKind(str, Enum):
    # Layer 1: statistics over a scored batch (no model call)
    SCORE_COMPRESSION = "score_compression"
    DIMENSION_COLLINEARITY = "dimension_collinearity"
    SOURCE_DOMAIN_BIAS = "source_domain_bias"
    SHALLOW_REWRITE = "shallow_rewrite"
    MAPPING_PADDING = "mapping_padding"
    INJECTION_SUSPECTED = "injection_suspected"
    PREFERENCE_GAMING = "preference_gaming"  # the generator's scores drift from the verifier's (§4.3.1)
    # Layer 2: red team at checkpoints
    RED_TEAM_CHALLENGE = "red_team_challenge"
    # Layer 3: cross-session pattern memory
    FAVOURITE_PATTERN = "favourite_pattern"
    # Layer 4: the target domain's profile
    HARD_CONSTRAINT_VIOLATION = "hard_constraint_violation"
    ANTI_PATTERN = "anti_pattern"
    STALE_IDEA = "stale_idea"
    # Answer Engine checkpoints
    CONSTRAINT_AUDIT = "constraint_audit"
    TARGET_DOMAIN = "target_domain"
    DIVERSITY_COLLAPSE = "diversity_collapse"
    RISK_CONVERGENCE = "risk_convergence"


LAYER_OF: dict[FindingKind, int] = {
    FindingKind.SCORE_COMPRESSION: 1,
    FindingKind.DIMENSION_COLLINEARITY: 1,
    FindingKind.SOURCE_DOMAIN_BIAS: 1,
    FindingKind.SHALLOW_REWRITE: 1,
    FindingKind.MAPPING_PADDING: 1,
    FindingKind.INJECTION_SUSPECTED: 1,
    FindingKind.PREFERENCE_GAMING: 1,
    FindingKind.DIVERSITY_COLLAPSE: 1,
    FindingKind.RED_TEAM_CHALLENGE: 2,
    FindingKind.FAVOURITE_PATTERN: 3,
    FindingKind.HARD_CONSTRAINT_VIOLATION: 4,
    FindingKind.ANTI_PATTERN: 4,
    FindingKind.STALE_IDEA: 4,
    FindingKind.CONSTRAINT_AUDIT: 4,
    FindingKind.TARGET_DOMAIN: 4,
    FindingKind.RISK_CONVERGENCE: 4,
}


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"


@dataclass(frozen=True, slots=True)
class Finding:
    """What a detector saw. `statistic` is compared with `threshold` as the kind's rule says."""

    kind: FindingKind
    statistic: float
    threshold: float
    hypothesis_ids: tuple[str, ...]
    message: str
    severity: Severity = Severity.WARNING
    p_value: float | None = None
    dimensions: tuple[str, ...] = ()  # the score dimensions (collinearity) or domains (bias) involved
    suggested_constraint: str = ""  # a constraint the person may adopt as theirs

    @property
    def layer(self) -> int:
        return LAYER_OF[self.kind]


class Checkpoint(str, Enum):
    """The Answer Engine's checkpoints (§7.3)."""

    CP1 = "CP-1"  # after the problem frame: constraint decidability / conflicts / duplicates
    CP2 = "CP-2"  # after the target domain: is it reasonable
    CP3 = "CP-3"  # after source-domain selection: bias
    CP4 = "CP-4"  # after BISO: score compression / diversity collapse
    CP5 = "CP-5"  # after each SEARCH round: structural collapse / shallow rewrite
    CP6 = "CP-6"  # after VERIFY: collinearity / reward hacking
    CP7 = "CP-7"  # after SOLVE: risk convergence / pattern memory


@dataclass(frozen=True, slots=True)
class SupervisorFinding:
    id: FindingId
    checkpoint: Checkpoint
    round: int
    finding: Finding
    dismissed: bool = False


class DirectiveKind(str, Enum):
    ADJUST_WEIGHTS = "ADJUST_WEIGHTS"
    ADJUST_SEARCH_PARAMS = "ADJUST_SEARCH_PARAMS"
    INJECT_CHALLENGE = "INJECT_CHALLENGE"
    PAUSE_PIPELINE = "PAUSE_PIPELINE"
    RESUME_PIPELINE = "RESUME_PIPELINE"
    FLAG_HYPOTHESIS = "FLAG_HYPOTHESIS"
    ADD_CONSTRAINT = "ADD_CONSTRAINT"


@dataclass(frozen=True, slots=True)
class Directive:
    """One instruction to the fast path, with the finding that caused it."""

    id: DirectiveId
    kind: DirectiveKind
    finding_id: FindingId
    message: str
    weights: dict[str, float] = field(default_factory=dict)  # ADJUST_WEIGHTS: the new weights
    quota_changes: dict[str, int] = field(default_factory=dict)  # ADJUST_SEARCH_PARAMS: +/- per operator
    hypothesis_ids: tuple[str, ...] = ()  # FLAG_HYPOTHESIS / INJECT_CHALLENGE targets
    constraint: str = ""  # ADD_CONSTRAINT: the constraint text (a suggestion until the person adopts it)
    challenge: str = ""  # INJECT_CHALLENGE: the challenge to put to the targets


@dataclass(frozen=True, slots=True)
class CheckpointAudit:
    """One checkpoint's audit: where it ran and what it found (ids into the supervisor's findings)."""

    checkpoint: Checkpoint
    round: int
    phase: str
    summary: str
    finding_ids: tuple[FindingId, ...] = ()
    directive_ids: tuple[DirectiveId, ...] = ()
    fast_events: tuple[FastEvent, ...] = ()  # what the fast path reported since the last checkpoint
    search_round: int = 1  # CP-5: the SEARCH round of the session round it followed (1 for the others)

    @property
    def passed(self) -> bool:
        return not self.finding_ids


def finding_id(checkpoint: Checkpoint, round_: int, kind: FindingKind, n: int, search_round: int = 1) -> FindingId:
    """Unique per checkpoint pass: a CP-5 after SEARCH round k > 1 of a session round says so (`-s<k>`)."""
    suffix = f"-{n}" if n else ""
    search = f"-s{search_round}" if search_round > 1 else ""
    return FindingId(f"{checkpoint.value}-r{round_}{search}-{kind.value}{suffix}")
