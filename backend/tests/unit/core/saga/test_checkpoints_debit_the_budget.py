"""Every layer is debited from the cognitive budget: each checkpoint pass pays its rule layers from its
stage's bucket (CP-1..3 domain audit, CP-4 BISO, CP-5 SEARCH, CP-6 VERIFY, CP-7 global review), an
item a finding singles out costs three times as much, a critical finding spends the reserve when its
bucket is short, and a refused debit is said in the audit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from forge.core.saga.budget import RULE_AUDIT_UNIT, Bucket, BudgetLedger, audit_units
from forge.core.saga.records import Checkpoint, Finding, FindingKind, Severity
from forge.core.saga.state import SupervisionState
from forge.core.saga.supervise import CHECKPOINT_BUCKET, run_checkpoint


def violation(*ids: str) -> Finding:
    return Finding(FindingKind.HARD_CONSTRAINT_VIOLATION, 1.0, 0.0, ids, "breaks a limit", Severity.CRITICAL)


def test_audit_units_per_item_and_three_times_for_an_item_singled_out() -> None:
    assert audit_units(0, 0) == RULE_AUDIT_UNIT  # a checkpoint with no batch audits one thing
    assert audit_units(20, 0) == pytest.approx(20 * RULE_AUDIT_UNIT)
    assert audit_units(20, 2) == pytest.approx(24 * RULE_AUDIT_UNIT)


def test_each_checkpoint_debits_its_own_bucket_five_buckets_in_all() -> None:
    state = SupervisionState()
    for cp in Checkpoint:
        state = run_checkpoint(state, cp, 0, [], batch_size=10).state
    spent = {bucket: units for bucket, units in state.budget.spent.items() if units > 0}
    assert set(spent) == {CHECKPOINT_BUCKET[cp].value for cp in Checkpoint}
    # the other two: the red team pays from ADVERSARIAL, a critical shortfall from EMERGENCY
    assert len(spent) == 5 and not {Bucket.ADVERSARIAL.value, Bucket.EMERGENCY.value} & set(spent)
    assert spent[Bucket.DOMAIN_AUDIT.value] == pytest.approx(3 * 10 * RULE_AUDIT_UNIT)


def test_a_critical_finding_draws_on_the_reserve_when_its_bucket_is_short() -> None:
    empty = replace(BudgetLedger(), remaining={**BudgetLedger().remaining, Bucket.BISO.value: 0.0})
    result = run_checkpoint(SupervisionState(budget=empty), Checkpoint.CP4, 0, [violation("h1")], batch_size=10)
    assert result.state.budget.spent[Bucket.EMERGENCY.value] == pytest.approx(audit_units(10, 1))
    assert "Budget" not in result.audit.summary


def test_a_short_bucket_without_urgency_is_refused_and_the_audit_says_so() -> None:
    empty = replace(BudgetLedger(), remaining={**BudgetLedger().remaining, Bucket.SEARCH.value: 0.0})
    result = run_checkpoint(SupervisionState(budget=empty), Checkpoint.CP5, 0, [], batch_size=10)
    assert result.state.budget == empty
    assert "search_monitoring has 0 of the 0.5 units asked" in result.audit.summary
