"""Every SAGA detector in one table (seed 000 §5.3, §7.3): each entry is the finding kind it
reports, the checkpoints it runs at and the function; its layer is its kind's (`LAYER_OF`).
`observe.py` builds what a checkpoint sees (an `Observation`) and runs the table's entries for it.

Invariants:
    - `detect_at` runs the entries of a checkpoint in table order, so a checkpoint's findings come
      in a fixed order: Layer 1 over the scores, then the text audits, Layer 4, Layer 3, then the
      checkpoint audits.
    - A detector whose input the observation lacks (no profile, no parents, no frame) finds nothing:
      the observation decides what a checkpoint can see, the table what it looks for.
    - Every finding kind has an entry here or in `PRODUCED_ELSEWHERE` (with where and why); a kind
      with two entries is two statistics reporting the same concern (a test lists them).
    - Pure: no model call. Layer 2 (the red team) and Layer 4's model-judged constraint check cost
      calls and run in the services; the check's flags reach the table in the observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from forge.core.explore.select_source_domains import DomainSelection
from forge.core.frame.problem_frame import AuditedFrame, ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.batch_audits import detect_mapping_padding, detect_risk_convergence, injection_finding
from forge.core.saga.checkpoints import audit_constraints_cp1, audit_source_domains_cp3, audit_target_domain_cp2
from forge.core.saga.detectors import (
    Batch,
    ScoredHypothesis,
    detect_collinearity,
    detect_diversity_collapse,
    detect_score_compression,
    detect_shallow_rewrites,
    detect_source_domain_bias,
)
from forge.core.saga.domain_profile import (
    ConstraintFlag,
    ProfiledText,
    TargetDomainProfile,
    check_anti_patterns,
    check_hard_constraints,
    check_stale_ideas,
)
from forge.core.saga.patterns import PatternSighting, detect_favourite_patterns
from forge.core.saga.records import LAYER_OF, Checkpoint, Finding, FindingKind, SupervisorFinding


@dataclass(frozen=True, slots=True)
class Observation:
    """What a checkpoint shows its detectors (each reads only its own fields)."""

    batch: Batch = field(default_factory=lambda: Batch(()))  # scored hypotheses (CP-4/5) or claims (CP-6)
    parents: Mapping[str, ScoredHypothesis] = field(default_factory=dict)  # CP-5: the children's parents
    hypotheses: Sequence[Hypothesis] = ()  # the pool batch itself (its mapping tables)
    texts: Mapping[str, str] = field(default_factory=dict)  # id -> text scanned for injected instructions
    profile: TargetDomainProfile | None = None  # Layer 4: the target domain's profile
    profiled: Sequence[ProfiledText] = ()  # Layer 4: the texts held against it
    constraint_flags: Sequence[ConstraintFlag] | None = None  # Layer 4: a model's check (None: the word rule)
    sighted: Sequence[tuple[str, PatternSighting]] = ()  # Layer 3: what is judged now, by id
    known: Sequence[PatternSighting] = ()  # Layer 3: every sighting to compare with (sighted included)
    audited_frame: AuditedFrame | None = None  # CP-1
    frame: ProblemFrame | None = None  # CP-2
    selection: DomainSelection | None = None  # CP-2, CP-3
    domain_fields: Mapping[str, str] = field(default_factory=dict)  # CP-3: source domain id -> field
    open_critical: Sequence[SupervisorFinding] = ()  # CP-7


Detected = Finding | Sequence[Finding] | None


@dataclass(frozen=True, slots=True)
class Detector:
    kind: FindingKind
    checkpoints: frozenset[Checkpoint]
    detect: Callable[[Observation], Detected]

    @property
    def layer(self) -> int:
        return LAYER_OF[self.kind]


POOL_BATCH = frozenset({Checkpoint.CP4, Checkpoint.CP5})  # after BISO, after each SEARCH round
SCORED = POOL_BATCH | {Checkpoint.CP6}  # and VERIFY's scored claims
ANSWER = frozenset({Checkpoint.CP7})


def _hard_constraints(o: Observation) -> Detected:
    return check_hard_constraints(o.profile, o.profiled, o.constraint_flags) if o.profile is not None else None


def _stale_ideas(o: Observation) -> Detected:
    return check_stale_ideas(o.profile, o.profiled) if o.profile is not None else None


def _constraint_audit(o: Observation) -> Detected:
    return audit_constraints_cp1(o.audited_frame) if o.audited_frame is not None else None


def _target_domain(o: Observation) -> Detected:
    return audit_target_domain_cp2(o.frame, o.selection) if o.frame is not None else None


DETECTORS: tuple[Detector, ...] = (
    # Layer 1: statistics over the scored batch
    Detector(FindingKind.SCORE_COMPRESSION, SCORED, lambda o: detect_score_compression(o.batch)),
    Detector(FindingKind.DIMENSION_COLLINEARITY, SCORED, lambda o: detect_collinearity(o.batch)),
    Detector(FindingKind.SOURCE_DOMAIN_BIAS, SCORED, lambda o: detect_source_domain_bias(o.batch)),
    Detector(
        FindingKind.SHALLOW_REWRITE,
        frozenset({Checkpoint.CP5}),
        lambda o: detect_shallow_rewrites(o.batch, o.parents) if o.parents else None,
    ),
    Detector(FindingKind.DIVERSITY_COLLAPSE, POOL_BATCH, lambda o: detect_diversity_collapse(o.batch)),
    # Layer 1: the batch's text
    Detector(FindingKind.MAPPING_PADDING, POOL_BATCH, lambda o: detect_mapping_padding(o.hypotheses)),
    Detector(FindingKind.INJECTION_SUSPECTED, SCORED, lambda o: injection_finding(o.texts)),
    # Layer 4: the target domain's profile
    Detector(FindingKind.HARD_CONSTRAINT_VIOLATION, SCORED | ANSWER, _hard_constraints),
    Detector(FindingKind.ANTI_PATTERN, SCORED, lambda o: check_anti_patterns(o.profiled)),
    Detector(FindingKind.STALE_IDEA, SCORED, _stale_ideas),
    # Layer 3: pattern memory
    Detector(
        FindingKind.FAVOURITE_PATTERN, POOL_BATCH | ANSWER, lambda o: detect_favourite_patterns(o.sighted, o.known)
    ),
    # The Answer Engine's own audits
    Detector(FindingKind.RISK_CONVERGENCE, ANSWER, lambda o: detect_risk_convergence(o.open_critical)),
    Detector(FindingKind.CONSTRAINT_AUDIT, frozenset({Checkpoint.CP1}), _constraint_audit),
    Detector(FindingKind.TARGET_DOMAIN, frozenset({Checkpoint.CP2}), _target_domain),
    Detector(
        FindingKind.SOURCE_DOMAIN_BIAS,
        frozenset({Checkpoint.CP3}),
        lambda o: audit_source_domains_cp3(o.selection, o.domain_fields),
    ),
)

# Finding kinds no entry reports, with the place that does.
PRODUCED_ELSEWHERE: dict[FindingKind, str] = {
    FindingKind.RED_TEAM_CHALLENGE: "Layer 2, model calls over up to 4 targets each: engine/saga/red_team.py, run by "
    "services/stages/supervision.py at CP-5 and CP-6",
    FindingKind.PREFERENCE_GAMING: "Layer 1 at CP-6, only where generator and verifier are different models "
    "(a fact of the composition root, not of the state): core/saga/preference_gaming.py, run by "
    "services/stages/supervision.py",
}


def detect_at(checkpoint: Checkpoint, observation: Observation) -> list[Finding]:
    """The findings of every detector of `checkpoint`, in table order."""
    findings: list[Finding] = []
    for detector in DETECTORS:
        if checkpoint not in detector.checkpoints:
            continue
        found = detector.detect(observation)
        if isinstance(found, Finding):
            findings.append(found)
        elif found is not None:
            findings.extend(found)
    return findings
