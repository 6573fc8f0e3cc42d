"""The mapping-quality gate's second layer (seed 000 §4.2.6): the model layer and the unpack audit,
run only on tables that passed every rule.

Model layer: a reviewer scores the table's systematicity and depth (are higher-order relations —
feedback loops, causal chains, constraints — mapped, not just entities?), each 0-10.

Unpack audit: two effective rows, chosen deterministically from the hypothesis id (the same on a
resumed run), must be explained: how does this row support the observable or a failure mode? A row
counts as explained only when the reviewer says it supports them AND the explanation is about them:
it shares a content term with the row's target side and one with the observable or failure modes. A
generic "it supports the hypothesis" explains nothing. Each unexplained row is padding suspected and
discounts the mapping score.

Invariants:
    - Pure: scores in, score out; no model, no randomness (the sample is a hash order of row indices).
    - The combined score never exceeds 10 and never rises above the rule layer's when the model layer
      scores lower than it; rows outside the sample are never judged here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.explore.mapping_quality_gate import MappingTable
from forge.core.research.text_terms import term_set

UNPACK_SAMPLE = 2
UNEXPLAINED_DISCOUNT = 0.75  # per unexplained row, multiplied
MODEL_LAYER_WEIGHT = 0.5  # the combined score = (1 - w) * rule layer + w * model layer
HIGHER_ORDER_BONUS = 1.0  # the model layer's score when higher-order relations are mapped


@dataclass(frozen=True, slots=True)
class DepthReview:
    """The model layer's judgement of one table."""

    systematicity: float  # 0..10: do the rows form coherent relational systems?
    depth: float  # 0..10: are higher-order relations mapped, not just entities?
    higher_order_mapped: bool
    rationale: str = ""

    @property
    def score(self) -> float:
        base = (_clamp(self.systematicity) + _clamp(self.depth)) / 2
        return round(min(10.0, base + (HIGHER_ORDER_BONUS if self.higher_order_mapped else 0.0)), 2)


@dataclass(frozen=True, slots=True)
class RowExplanation:
    row: int
    supports: bool  # the reviewer's own answer
    explanation: str


@dataclass(frozen=True, slots=True)
class UnpackAudit:
    rows: tuple[int, ...]  # the sampled effective rows
    unexplained: tuple[int, ...]  # of those, the rows nobody could tie to the observable or failure modes

    @property
    def padding_suspected(self) -> bool:
        return bool(self.unexplained)

    @property
    def discount(self) -> float:
        return round(UNEXPLAINED_DISCOUNT ** len(self.unexplained), 4)


def _clamp(value: float) -> float:
    return max(0.0, min(10.0, value))


def choose_unpack_rows(hypothesis_id: str, effective_rows: Sequence[int], k: int = UNPACK_SAMPLE) -> tuple[int, ...]:
    """`k` effective rows in a pseudo-random order fixed by the hypothesis id; sorted for display."""
    ranked = sorted(effective_rows, key=lambda row: hashlib.sha256(f"{hypothesis_id}:{row}".encode()).hexdigest())
    return tuple(sorted(ranked[:k]))


def is_explained(table: MappingTable, explanation: RowExplanation, downstream_text: str) -> bool:
    """The reviewer says the row supports the observable or failure modes, and says how, concretely."""
    if not explanation.supports or not 0 <= explanation.row < len(table.rows):
        return False
    row = table.rows[explanation.row]
    said = term_set(explanation.explanation)
    about_row = said & term_set(f"{row.target_concept} {row.target_relation} {row.observable_link}")
    about_downstream = said & term_set(downstream_text)
    return bool(about_row) and bool(about_downstream)


def audit_unpack(
    table: MappingTable, sampled: Sequence[int], explanations: Sequence[RowExplanation], downstream_text: str
) -> UnpackAudit:
    """Every sampled row without a concrete explanation is unexplained (a missing answer included)."""
    by_row = {e.row: e for e in explanations}
    unexplained = tuple(
        row for row in sampled if row not in by_row or not is_explained(table, by_row[row], downstream_text)
    )
    return UnpackAudit(tuple(sampled), unexplained)


def combined_mapping_score(rule_score: float, review: DepthReview, audit: UnpackAudit) -> float:
    """Rule and model layers blended, then discounted per unexplained row."""
    blended = (1 - MODEL_LAYER_WEIGHT) * rule_score + MODEL_LAYER_WEIGHT * review.score
    return round(min(10.0, blended) * audit.discount, 2)
