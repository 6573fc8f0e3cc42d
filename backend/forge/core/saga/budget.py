"""SAGA's cognitive budget (seed 000 §5.4): 100 units (1 unit ≈ one standard model call) split
into buckets, and the four strategies that decide which hypotheses an audit spends them on.

Invariants:
    - The split is the seed's: emergency reserve 10, domain audit 9, BISO 13.5, SEARCH 13.5,
      VERIFY 18, adversarial 22.5, global review 13.5 (sum 100).
    - `spend` never lets a bucket go below zero: what its bucket cannot pay is drawn from the
      emergency reserve only when the spend is `urgent`; otherwise the spend is refused as a value
      (`BudgetRefusal`) and the ledger is unchanged.
    - `allocate` never plans more units than the bucket (plus nothing else) holds; hypotheses are
      served in the strategy's order until the bucket is empty:
        ANOMALY_DRIVEN (default): anomalous hypotheses first at 3 units each, then the rest at 1;
        ATTENTION_WEIGHTED: highest score first, units 1..3 by score band (≥ 7 → 3, ≥ 5 → 2);
        NOVELTY_GATED: only hypotheses with novelty ≥ 7.0, 1 unit each, most novel first;
        UNIFORM: every hypothesis 1 unit in the given order.
    - Every layer is debited (`supervise.CHECKPOINT_BUCKET`): the red team (Layer 2, model calls) from the
      adversarial bucket at its units per target; each checkpoint's rule layers (1, 3, 4 and the
      CP-1..3 audits, no model call) from its stage's bucket at `audit_units` — RULE_AUDIT_UNIT per
      item audited, ANOMALY_UNITS times that for an item a finding singles out (a batch-wide finding,
      such as compression, singles out none). A checkpoint with a
      critical finding spends urgently (the reserve covers its bucket's shortfall); a refused
      debit leaves the ledger as it was, and the rules still run (they cost no call): the audit says
      its bucket is spent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

TOTAL_UNITS = 100.0
ANOMALY_UNITS = 3.0
RULE_AUDIT_UNIT = 0.05  # one item through the rule layers: no model call, a twentieth of a standard call
NOVELTY_GATE = 7.0


class Bucket(str, Enum):
    EMERGENCY = "emergency_reserve"
    DOMAIN_AUDIT = "domain_audit"
    BISO = "biso_monitoring"
    SEARCH = "search_monitoring"
    VERIFY = "verify_monitoring"
    ADVERSARIAL = "adversarial_eval"
    GLOBAL = "global_review"


SPLIT: dict[Bucket, float] = {
    Bucket.EMERGENCY: 0.10,
    Bucket.DOMAIN_AUDIT: 0.09,
    Bucket.BISO: 0.135,
    Bucket.SEARCH: 0.135,
    Bucket.VERIFY: 0.18,
    Bucket.ADVERSARIAL: 0.225,
    Bucket.GLOBAL: 0.135,
}


class Strategy(str, Enum):
    ANOMALY_DRIVEN = "ANOMALY_DRIVEN"
    ATTENTION_WEIGHTED = "ATTENTION_WEIGHTED"
    NOVELTY_GATED = "NOVELTY_GATED"
    UNIFORM = "UNIFORM"


@dataclass(frozen=True, slots=True)
class BudgetLedger:
    strategy: Strategy = Strategy.ANOMALY_DRIVEN
    remaining: dict[str, float] = field(default_factory=lambda: {b.value: TOTAL_UNITS * s for b, s in SPLIT.items()})
    spent: dict[str, float] = field(default_factory=lambda: {b.value: 0.0 for b in SPLIT})

    def left(self, bucket: Bucket) -> float:
        return round(self.remaining.get(bucket.value, 0.0), 6)

    @property
    def total_spent(self) -> float:
        return round(sum(self.spent.values()), 6)


@dataclass(frozen=True, slots=True)
class BudgetRefusal:
    bucket: Bucket
    asked: float
    available: float
    message: str


def spend(ledger: BudgetLedger, bucket: Bucket, units: float, *, urgent: bool = False) -> BudgetLedger | BudgetRefusal:
    """The ledger after spending `units` from `bucket` (the reserve covers an urgent shortfall)."""
    own = ledger.left(bucket)
    shortfall = max(0.0, units - own)
    reserve = ledger.left(Bucket.EMERGENCY) if bucket is not Bucket.EMERGENCY else 0.0
    if shortfall > 1e-9 and (not urgent or shortfall > reserve + 1e-9):
        available = own + (reserve if urgent else 0.0)
        return BudgetRefusal(
            bucket, units, available, f"{bucket.value} has {available:g} of the {units:g} units asked."
        )
    remaining = dict(ledger.remaining)
    spent = dict(ledger.spent)
    remaining[bucket.value] = round(own - (units - shortfall), 6)
    spent[bucket.value] = round(spent.get(bucket.value, 0.0) + units - shortfall, 6)
    if shortfall > 1e-9:
        remaining[Bucket.EMERGENCY.value] = round(reserve - shortfall, 6)
        spent[Bucket.EMERGENCY.value] = round(spent.get(Bucket.EMERGENCY.value, 0.0) + shortfall, 6)
    return replace(ledger, remaining=remaining, spent=spent)


def audit_units(items: int, anomalous: int) -> float:
    """What a checkpoint's rule layers cost: RULE_AUDIT_UNIT per item (at least one), ANOMALY_UNITS
    times that for each of the `anomalous` items a finding singles out."""
    anomalous = min(anomalous, max(1, items))
    return round(RULE_AUDIT_UNIT * (max(1, items) + (ANOMALY_UNITS - 1) * anomalous), 6)


@dataclass(frozen=True, slots=True)
class AuditCandidate:
    id: str
    score: float  # 0..10
    novelty: float  # 0..10
    anomalous: bool


def allocate(ledger: BudgetLedger, bucket: Bucket, candidates: Sequence[AuditCandidate]) -> dict[str, float]:
    """Units per hypothesis that `bucket` can pay for, by the ledger's strategy (insertion order = priority)."""
    plan: dict[str, float] = {}
    left = ledger.left(bucket)
    for candidate, units in _wanted(ledger.strategy, candidates):
        if units <= left + 1e-9:
            plan[candidate.id] = units
            left -= units
    return plan


def _wanted(strategy: Strategy, candidates: Sequence[AuditCandidate]) -> list[tuple[AuditCandidate, float]]:
    if strategy is Strategy.ANOMALY_DRIVEN:
        ordered = sorted(candidates, key=lambda c: (not c.anomalous, -c.score))
        return [(c, ANOMALY_UNITS if c.anomalous else 1.0) for c in ordered]
    if strategy is Strategy.ATTENTION_WEIGHTED:
        ordered = sorted(candidates, key=lambda c: -c.score)
        return [(c, 3.0 if c.score >= 7 else 2.0 if c.score >= 5 else 1.0) for c in ordered]
    if strategy is Strategy.NOVELTY_GATED:
        gated = sorted((c for c in candidates if c.novelty >= NOVELTY_GATE), key=lambda c: -c.novelty)
        return [(c, 1.0) for c in gated]
    return [(c, 1.0) for c in candidates]
