import pytest

from forge.core.saga.budget import (
    SPLIT,
    AuditCandidate,
    Bucket,
    BudgetLedger,
    BudgetRefusal,
    Strategy,
    allocate,
    spend,
)


def test_the_split_is_the_seeds_and_sums_to_100_units():
    ledger = BudgetLedger()
    assert sum(ledger.remaining.values()) == pytest.approx(100.0)
    assert ledger.left(Bucket.ADVERSARIAL) == 22.5
    assert ledger.left(Bucket.EMERGENCY) == 10.0
    assert ledger.left(Bucket.DOMAIN_AUDIT) == 9.0
    assert ledger.left(Bucket.VERIFY) == 18.0
    assert set(SPLIT) == set(Bucket)


class TestSpend:
    def test_spending_moves_units_from_remaining_to_spent_in_that_bucket_only(self):
        ledger = spend(BudgetLedger(), Bucket.BISO, 4)
        assert isinstance(ledger, BudgetLedger)
        assert ledger.left(Bucket.BISO) == 9.5
        assert ledger.spent[Bucket.BISO.value] == 4
        assert ledger.left(Bucket.SEARCH) == 13.5
        assert ledger.total_spent == 4

    def test_overspending_is_refused_and_the_ledger_unchanged(self):
        ledger = BudgetLedger()
        refused = spend(ledger, Bucket.DOMAIN_AUDIT, 12)
        assert isinstance(refused, BudgetRefusal)
        assert refused.available == 9.0
        assert ledger.left(Bucket.DOMAIN_AUDIT) == 9.0

    def test_an_urgent_shortfall_is_drawn_from_the_emergency_reserve(self):
        ledger = spend(BudgetLedger(), Bucket.DOMAIN_AUDIT, 12, urgent=True)
        assert isinstance(ledger, BudgetLedger)
        assert ledger.left(Bucket.DOMAIN_AUDIT) == 0
        assert ledger.left(Bucket.EMERGENCY) == 7.0
        assert ledger.spent[Bucket.EMERGENCY.value] == 3.0
        assert ledger.total_spent == 12

    def test_urgency_cannot_exceed_the_reserve(self):
        assert isinstance(spend(BudgetLedger(), Bucket.DOMAIN_AUDIT, 20, urgent=True), BudgetRefusal)


CANDIDATES = [
    AuditCandidate("plain-high", 8.0, 5.0, False),
    AuditCandidate("odd", 4.0, 8.0, True),
    AuditCandidate("plain-low", 3.0, 7.5, False),
    AuditCandidate("novel", 6.0, 9.0, False),
]


class TestAllocate:
    def test_anomaly_driven_serves_anomalies_first_at_three_units(self):
        plan = allocate(BudgetLedger(), Bucket.ADVERSARIAL, CANDIDATES)
        assert next(iter(plan.items())) == ("odd", 3.0)
        assert plan == {"odd": 3.0, "plain-high": 1.0, "novel": 1.0, "plain-low": 1.0}

    def test_attention_weighted_gives_more_to_higher_scores(self):
        plan = allocate(BudgetLedger(Strategy.ATTENTION_WEIGHTED), Bucket.ADVERSARIAL, CANDIDATES)
        assert plan == {"plain-high": 3.0, "novel": 2.0, "odd": 1.0, "plain-low": 1.0}

    def test_novelty_gated_audits_only_novelty_of_seven_or_more(self):
        plan = allocate(BudgetLedger(Strategy.NOVELTY_GATED), Bucket.ADVERSARIAL, CANDIDATES)
        assert list(plan) == ["novel", "odd", "plain-low"]

    def test_uniform_gives_one_each(self):
        assert set(allocate(BudgetLedger(Strategy.UNIFORM), Bucket.ADVERSARIAL, CANDIDATES).values()) == {1.0}

    def test_never_plans_more_than_the_bucket_holds(self):
        ledger = spend(BudgetLedger(), Bucket.ADVERSARIAL, 20.5)
        assert isinstance(ledger, BudgetLedger)
        plan = allocate(ledger, Bucket.ADVERSARIAL, CANDIDATES)
        assert sum(plan.values()) <= 2.0
        assert plan == {"plain-high": 1.0, "novel": 1.0}  # the anomaly's 3 units do not fit
