"""Rule verdicts: what a rule returns instead of raising.

Invariants:
    - A rule returns `None` when satisfied and a `RuleViolation` otherwise; rules never raise.
    - Each of the 15 rules of the product spec has exactly one ErrorCode; the numbering is kept in
      `RULE_NUMBER` so documentation and tests can refer to "rule 12".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ErrorCode(str, Enum):
    DECOMPOSE_INCOMPLETE = "DECOMPOSE_INCOMPLETE"
    EXPLORE_INCOMPLETE = "EXPLORE_INCOMPLETE"
    ANTITHESIS_MISSING = "ANTITHESIS_MISSING"
    SYNTHESIS_INCOMPLETE = "SYNTHESIS_INCOMPLETE"
    FALSIFICATION_MISSING = "FALSIFICATION_MISSING"
    NOVELTY_UNCHECKED = "NOVELTY_UNCHECKED"
    UNGROUNDED_CLAIM = "UNGROUNDED_CLAIM"
    CLAIM_LIMIT_EXCEEDED = "CLAIM_LIMIT_EXCEEDED"
    NOT_CUMULATIVE = "NOT_CUMULATIVE"
    NEGATIVE_KNOWLEDGE_MISSING = "NEGATIVE_KNOWLEDGE_MISSING"
    MAX_ROUNDS_EXCEEDED = "MAX_ROUNDS_EXCEEDED"
    STATE_OF_ART_NOT_RESEARCHED = "STATE_OF_ART_NOT_RESEARCHED"
    CROSS_DOMAIN_NOT_SEARCHED = "CROSS_DOMAIN_NOT_SEARCHED"
    ANTITHESIS_NOT_SEARCHED = "ANTITHESIS_NOT_SEARCHED"
    FALSIFICATION_NOT_SEARCHED = "FALSIFICATION_NOT_SEARCHED"
    # Tool-protocol errors (not among the 15 rules).
    UNKNOWN_TOOL = "UNKNOWN_TOOL"
    TOOL_NOT_IN_PHASE = "TOOL_NOT_IN_PHASE"
    INVALID_INPUT = "INVALID_INPUT"
    CLAIM_NOT_FOUND = "CLAIM_NOT_FOUND"
    GRAPH_CYCLE = "GRAPH_CYCLE"
    TOOL_FAILED = "TOOL_FAILED"
    PHASE_WORK_INCOMPLETE = "PHASE_WORK_INCOMPLETE"
    BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
    FEEDBACK_UNADDRESSED = "FEEDBACK_UNADDRESSED"  # the person's claim feedback is acted on first
    REPEATED_CALL = "REPEATED_CALL"  # the same tool call again (core.llm.repeated_calls)


RULE_NUMBER: dict[ErrorCode, int] = {
    ErrorCode.DECOMPOSE_INCOMPLETE: 1,
    ErrorCode.EXPLORE_INCOMPLETE: 2,
    ErrorCode.ANTITHESIS_MISSING: 3,
    ErrorCode.SYNTHESIS_INCOMPLETE: 4,
    ErrorCode.FALSIFICATION_MISSING: 5,
    ErrorCode.NOVELTY_UNCHECKED: 6,
    ErrorCode.UNGROUNDED_CLAIM: 7,
    ErrorCode.CLAIM_LIMIT_EXCEEDED: 8,
    ErrorCode.NOT_CUMULATIVE: 9,
    ErrorCode.NEGATIVE_KNOWLEDGE_MISSING: 10,
    ErrorCode.MAX_ROUNDS_EXCEEDED: 11,
    ErrorCode.STATE_OF_ART_NOT_RESEARCHED: 12,
    ErrorCode.CROSS_DOMAIN_NOT_SEARCHED: 13,
    ErrorCode.ANTITHESIS_NOT_SEARCHED: 14,
    ErrorCode.FALSIFICATION_NOT_SEARCHED: 15,
}


@dataclass(frozen=True, slots=True)
class RuleViolation:
    code: ErrorCode
    message: str

    @property
    def rule_number(self) -> int | None:
        return RULE_NUMBER.get(self.code)


def first_violation(*verdicts: RuleViolation | None) -> RuleViolation | None:
    """Return the first violation among already-evaluated verdicts (ordered by priority)."""
    return next((v for v in verdicts if v is not None), None)


def missing_work(code: ErrorCode, phase: str, missing: list[str]) -> RuleViolation | None:
    """A phase gate's verdict: None when nothing is missing, else one violation naming every gap."""
    if not missing:
        return None
    return RuleViolation(code, f"{phase} is incomplete: still missing {'; '.join(missing)}.")
