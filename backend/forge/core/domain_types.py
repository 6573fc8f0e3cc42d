"""Domain vocabulary: identifiers and enumerations shared by every layer.

Invariants:
    - Ids are NewTypes over UUID so a ClaimId can never be passed where a SessionId is expected.
    - Enums are `str` enums whose values are the wire/database spelling (lower_snake_case).

Design decisions:
    - Phase carries its ordinal (1..6) because the spec stores `current_phase` as an int.
"""

from __future__ import annotations

from enum import Enum
from typing import NewType
from uuid import UUID

SessionId = NewType("SessionId", UUID)
ClaimId = NewType("ClaimId", UUID)
EvidenceId = NewType("EvidenceId", UUID)
EdgeId = NewType("EdgeId", UUID)
ReframingId = NewType("ReframingId", UUID)
AnalogyId = NewType("AnalogyId", UUID)
ContradictionId = NewType("ContradictionId", UUID)
ToolCallId = NewType("ToolCallId", str)
EventSeq = NewType("EventSeq", int)

MAX_ROUNDS = 5
MAX_CLAIMS_PER_ROUND = 3
MIN_ASSUMPTIONS = 3
MIN_REFRAMINGS = 3
MIN_CROSS_DOMAIN_SEARCHES = 2
MIN_CONTRADICTIONS = 1


class EngineStage(str, Enum):
    """An engine stage: what `engine_progress` and `engine_stage` events name in `stage` (the one list the
    engine, the services, the API schema and the SPA's labels read)."""

    FRAME = "frame"
    BISO = "biso"
    SUGGESTED_DOMAINS = "suggested_domains"
    MAPPING_REVIEW = "mapping_review"
    SEARCH = "search"
    SCORE = "score"  # the verifier's five scores of the pool's new hypotheses, after BISO and SEARCH
    VERIFY = "verify"
    RED_TEAM = "red_team"
    SOLVE = "solve"


class Phase(str, Enum):
    DECOMPOSE = "decompose"
    EXPLORE = "explore"
    SYNTHESIZE = "synthesize"
    VALIDATE = "validate"
    BUILD = "build"
    CRYSTALLIZE = "crystallize"

    @property
    def ordinal(self) -> int:
        return list(Phase).index(self) + 1

    @classmethod
    def from_ordinal(cls, ordinal: int) -> Phase:
        if not 1 <= ordinal <= len(cls):
            raise ValueError(f"Phase ordinal must be 1..{len(cls)}, got {ordinal}.")
        return list(Phase)[ordinal - 1]


class SessionStatus(str, Enum):
    DECOMPOSING = "decomposing"
    EXPLORING = "exploring"
    SYNTHESIZING = "synthesizing"
    VALIDATING = "validating"
    BUILDING = "building"
    CRYSTALLIZING = "crystallizing"  # in CRYSTALLIZE, the document not written yet (resumable)
    CRYSTALLIZED = "crystallized"
    CANCELLED = "cancelled"

    @classmethod
    def for_phase(cls, phase: Phase) -> SessionStatus:
        return _STATUS_BY_PHASE[phase]


_STATUS_BY_PHASE = {
    Phase.DECOMPOSE: SessionStatus.DECOMPOSING,
    Phase.EXPLORE: SessionStatus.EXPLORING,
    Phase.SYNTHESIZE: SessionStatus.SYNTHESIZING,
    Phase.VALIDATE: SessionStatus.VALIDATING,
    Phase.BUILD: SessionStatus.BUILDING,
    Phase.CRYSTALLIZE: SessionStatus.CRYSTALLIZING,
}


class ClaimType(str, Enum):
    THESIS = "thesis"
    ANTITHESIS = "antithesis"
    SYNTHESIS = "synthesis"
    USER_CONTRIBUTED = "user_contributed"
    MERGED = "merged"


class ClaimStatus(str, Enum):
    PROPOSED = "proposed"
    VALIDATED = "validated"
    REJECTED = "rejected"
    QUALIFIED = "qualified"
    SUPERSEDED = "superseded"


class ClaimConfidence(str, Enum):
    SPECULATIVE = "speculative"
    EMERGING = "emerging"
    GROUNDED = "grounded"


class EdgeType(str, Enum):
    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    EXTENDS = "extends"
    SUPERSEDES = "supersedes"
    DEPENDS_ON = "depends_on"
    MERGED_FROM = "merged_from"


class VerdictType(str, Enum):
    ACCEPT = "accept"
    REJECT = "reject"
    QUALIFY = "qualify"
    MERGE = "merge"


class ReframingType(str, Enum):
    SCOPE_CHANGE = "scope_change"
    ENTITY_QUESTION = "entity_question"
    VARIABLE_CHANGE = "variable_change"
    DOMAIN_CHANGE = "domain_change"


class EvidenceType(str, Enum):
    SUPPORTING = "supporting"
    CONTRADICTING = "contradicting"
    CONTEXTUAL = "contextual"


class SemanticDistance(str, Enum):
    NEAR = "near"
    MEDIUM = "medium"
    FAR = "far"


class Contributor(str, Enum):
    AGENT = "agent"
    USER = "user"


class ReviewType(str, Enum):
    """The five review inputs; each is what the session waits for after one phase."""

    DECOMPOSE_REVIEW = "decompose_review"
    EXPLORE_REVIEW = "explore_review"
    CLAIMS_REVIEW = "claims_review"
    VERDICTS = "verdicts"
    BUILD_DECISION = "build_decision"


class BuildDecision(str, Enum):
    CONTINUE = "continue"
    DEEP_DIVE = "deep_dive"
    RESOLVE = "resolve"
    ADD_INSIGHT = "add_insight"


REVIEW_AFTER_PHASE: dict[Phase, ReviewType] = {
    Phase.DECOMPOSE: ReviewType.DECOMPOSE_REVIEW,
    Phase.EXPLORE: ReviewType.EXPLORE_REVIEW,
    Phase.SYNTHESIZE: ReviewType.CLAIMS_REVIEW,
    Phase.VALIDATE: ReviewType.VERDICTS,
    Phase.BUILD: ReviewType.BUILD_DECISION,
}
