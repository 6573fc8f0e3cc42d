"""Rule verdicts: the fifteen numbered rules and first-violation selection."""

from __future__ import annotations

from forge.core.rules.verdicts import RULE_NUMBER, ErrorCode, RuleViolation, first_violation

FIFTEEN_RULES = [
    ErrorCode.DECOMPOSE_INCOMPLETE,
    ErrorCode.EXPLORE_INCOMPLETE,
    ErrorCode.ANTITHESIS_MISSING,
    ErrorCode.SYNTHESIS_INCOMPLETE,
    ErrorCode.FALSIFICATION_MISSING,
    ErrorCode.NOVELTY_UNCHECKED,
    ErrorCode.UNGROUNDED_CLAIM,
    ErrorCode.CLAIM_LIMIT_EXCEEDED,
    ErrorCode.NOT_CUMULATIVE,
    ErrorCode.NEGATIVE_KNOWLEDGE_MISSING,
    ErrorCode.MAX_ROUNDS_EXCEEDED,
    ErrorCode.STATE_OF_ART_NOT_RESEARCHED,
    ErrorCode.CROSS_DOMAIN_NOT_SEARCHED,
    ErrorCode.ANTITHESIS_NOT_SEARCHED,
    ErrorCode.FALSIFICATION_NOT_SEARCHED,
]


def test_the_fifteen_rules_are_numbered_one_to_fifteen_in_spec_order() -> None:
    assert [RULE_NUMBER[code] for code in FIFTEEN_RULES] == list(range(1, 16))
    assert set(RULE_NUMBER) == set(FIFTEEN_RULES)


def test_error_code_values_equal_their_names() -> None:
    assert all(code.value == code.name for code in ErrorCode)


def test_protocol_errors_have_no_rule_number() -> None:
    assert RuleViolation(ErrorCode.GRAPH_CYCLE, "x").rule_number is None
    assert RuleViolation(ErrorCode.UNKNOWN_TOOL, "x").rule_number is None


def test_rule_violation_knows_its_rule_number() -> None:
    assert RuleViolation(ErrorCode.CLAIM_LIMIT_EXCEEDED, "x").rule_number == 8


def test_first_violation_returns_the_first_non_none() -> None:
    a = RuleViolation(ErrorCode.NOT_CUMULATIVE, "a")
    b = RuleViolation(ErrorCode.CLAIM_LIMIT_EXCEEDED, "b")
    assert first_violation(None, a, b) is a
    assert first_violation(b, a) is b


def test_first_violation_of_all_passing_verdicts_is_none() -> None:
    assert first_violation() is None
    assert first_violation(None, None) is None
