"""The hypothesis pool (seed 000 §4.1–4.2): every candidate idea with its lineage, mapping table and
gate result — the graph that SEARCH grows and the person stars from.

Invariants:
    - A Hypothesis is immutable; a change is a new hypothesis whose `parents` name the old ones and
      whose `operator` says how it was made ("biso" for the first generation).
    - Its `gate` is the rule layer of the mapping-quality gate run on its own table against its own
      statement, observable and failure modes; a failed gate caps `mapping_score` at 4.0. A passed
      gate may then carry the model layer and unpack audit (`with_model_layer`), which replace
      `mapping_score` by their blend and keep the rule layer's in `rule_layer_score`.
    - Lineage is the graph: `operator` + `parents` on every hypothesis. What an operator grounded
      it on travels with it: `hyperpath` (HKG trace, hyperpath_expand / hyperbridge), `blend`
      (blend_expand's network), `transform` (transform_space's ACCEPTED gate record), and
      `structural_grounding` (0–10, None when never grounded).
    - `merge_near_duplicates` keeps, of two hypotheses whose statements overlap by Jaccard ≥
      NEAR_DUPLICATE_JACCARD, the better one (gate passed, then higher mapping score, then the
      earlier) and records which ids it absorbed; the pool's order is otherwise kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import NewType

from forge.core.explore.mapping_model_layer import DepthReview, UnpackAudit, combined_mapping_score
from forge.core.explore.mapping_quality_gate import (
    FAILED_SCORE_CAP,
    MIN_EFFECTIVE_ROWS,
    MIN_MAPPING_TYPES,
    GateRule,
    MappingGateVerdict,
    MappingTable,
    check_mapping_table,
)
from forge.core.research.text_terms import term_set
from forge.core.search.blend_network import BlendNetwork
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.search.transform_gate import TransformRecord

HypothesisId = NewType("HypothesisId", str)
NEAR_DUPLICATE_JACCARD = 0.6


class GateStatus(str, Enum):
    PASSED = "passed"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class GateSummary:
    status: GateStatus
    failed_rules: tuple[GateRule, ...]
    effective_rows: int
    mapping_score: float  # 0..10: the rule layer's (capped at 4.0 when a rule failed), then the model layer's blend
    rule_layer_score: float | None = None  # kept once the model layer has changed mapping_score
    depth_review: DepthReview | None = None  # the model layer; only for tables that passed every rule
    unpack: UnpackAudit | None = None


@dataclass(frozen=True, slots=True)
class Hypothesis:
    id: HypothesisId
    domain_id: str
    domain_name: str
    structure: str
    title: str
    statement: str
    mechanism: str
    mapping: MappingTable
    observable: str
    failure_modes: tuple[str, ...]
    gate: GateSummary
    operator: str = "biso"
    parents: tuple[HypothesisId, ...] = ()
    round: int = 0
    absorbed: tuple[HypothesisId, ...] = ()  # near-duplicates merged into this one
    hyperpath: HyperpathTrace | None = None
    blend: BlendNetwork | None = None
    transform: TransformRecord | None = None
    structural_grounding: float | None = None  # structural_grounding_score 0..10, None when never grounded

    @property
    def downstream_text(self) -> str:
        """What the mapping table must support: the statement, observable and failure modes."""
        return " ".join((self.statement, self.observable, *self.failure_modes))


@dataclass(frozen=True, slots=True)
class DomainYield:
    domain_id: str
    domain_name: str
    hypotheses: int
    passed: int
    failure: str = ""  # why the domain gave nothing (its call failed), else empty
    declined: str = ""  # the model's reason when it said the domain does not fit the target, else empty


@dataclass(frozen=True, slots=True)
class BisoSummary:
    """One BISO stage as the state keeps it: counts per domain; the hypotheses are in the pool."""

    round: int
    generated: int
    kept: int
    passed: int
    domains: tuple[DomainYield, ...]

    @property
    def declined(self) -> int:
        return sum(1 for d in self.domains if d.declined)


def summarize_pool(
    round_: int,
    generated: int,
    kept: Sequence[Hypothesis],
    failures: dict[str, str],
    names: dict[str, str],
    declines: dict[str, str] | None = None,
) -> BisoSummary:
    """Per domain (in `names` order): kept hypotheses, how many passed the gate, any failure and any decline."""
    yields = tuple(
        DomainYield(
            domain_id,
            name,
            sum(1 for h in kept if h.domain_id == domain_id),
            sum(1 for h in kept if h.domain_id == domain_id and h.gate.status is GateStatus.PASSED),
            failures.get(domain_id, ""),
            (declines or {}).get(domain_id, ""),
        )
        for domain_id, name in names.items()
    )
    passed = sum(1 for h in kept if h.gate.status is GateStatus.PASSED)
    return BisoSummary(round_, generated, len(kept), passed, yields)


def rule_layer_score(verdict: MappingGateVerdict, mapping_types: int) -> float:
    """6 for a table that passes every rule, up to +2 for effective rows beyond the minimum and up
    to +2 for mapping types beyond the minimum; a failed table gets 4.0 x the share of rules passed."""
    passed = sum(1 for o in verdict.outcomes if o.passed)
    if not verdict.passed:
        return round(FAILED_SCORE_CAP * passed / len(verdict.outcomes), 2)
    extra_rows = min(2.0, 0.5 * (len(verdict.effective_rows) - MIN_EFFECTIVE_ROWS))
    extra_types = min(2.0, float(mapping_types - MIN_MAPPING_TYPES))
    return round(6.0 + extra_rows + extra_types, 2)


def gate_summary(mapping: MappingTable, downstream_text: str) -> GateSummary:
    verdict = check_mapping_table(mapping, downstream_text)
    effective = verdict.effective_rows
    types = {mapping.rows[i].mapping_type for i in effective}
    return GateSummary(
        GateStatus.PASSED if verdict.passed else GateStatus.FAILED,
        verdict.failed_rules,
        len(effective),
        rule_layer_score(verdict, len(types)),
    )


def with_model_layer(hypothesis: Hypothesis, review: DepthReview, audit: UnpackAudit) -> Hypothesis:
    """The hypothesis with its gate's model layer and unpack audit applied (passed gates only)."""
    gate = hypothesis.gate
    if gate.status is not GateStatus.PASSED:
        return hypothesis
    rule_score = gate.rule_layer_score if gate.rule_layer_score is not None else gate.mapping_score
    reviewed = replace(
        gate,
        mapping_score=combined_mapping_score(rule_score, review, audit),
        rule_layer_score=rule_score,
        depth_review=review,
        unpack=audit,
    )
    return replace(hypothesis, gate=reviewed)


def _rank(h: Hypothesis) -> tuple[bool, float]:
    return (h.gate.status is GateStatus.PASSED, h.gate.mapping_score)


def merge_near_duplicates(pool: Sequence[Hypothesis]) -> list[Hypothesis]:
    kept: list[Hypothesis] = []
    terms: list[frozenset[str]] = []
    for hypothesis in pool:
        mine = term_set(hypothesis.statement)
        twin = next((i for i, other in enumerate(terms) if _jaccard(mine, other) >= NEAR_DUPLICATE_JACCARD), None)
        if twin is None:
            kept.append(hypothesis)
            terms.append(mine)
            continue
        winner, loser = (hypothesis, kept[twin]) if _rank(hypothesis) > _rank(kept[twin]) else (kept[twin], hypothesis)
        kept[twin] = replace(winner, absorbed=(*winner.absorbed, loser.id, *loser.absorbed))
        terms[twin] = term_set(winner.statement)
    return kept


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0
