"""The offline model as the mapping gate's reviewer: rules of thumb over the table, labelled as such.

Invariants: one review per hypothesis of the batch, by its id; systematicity = 10 x the share of rows in
the largest group; depth = 10 x the weighted share of relational rows (higher-order 1.0, relation 0.6,
attribute 0.2, entity 0); a sampled row "supports" only when a term of its target side is in the observable or failure modes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from forge.core.explore.mapping_quality_gate import MappingType
from forge.core.research.text_terms import term_set
from forge.engine.explore import review_mapping_depth as review
from forge.offline.offline_structured_model import offline_context
from forge.ports import StructuredRequest

_DEPTH_WEIGHT = {MappingType.HIGHER_ORDER: 1.0, MappingType.RELATION: 0.6, MappingType.ATTRIBUTE: 0.2}  # entity: 0
_NOTE = "Offline review (rules of thumb over the table; no language model read it)"


def offline_mapping_reviews(request: StructuredRequest[Any]) -> review.MappingReviewsOutput:
    batch = offline_context(request, review.MappingReviewBatch)
    return review.MappingReviewsOutput(reviews=[_one(c) for c in batch.items])


def _one(context: review.MappingReviewContext) -> review.MappingReviewOutput:
    h = context.hypothesis
    rows = h.mapping.rows
    groups = Counter(r.systematicity_group.strip() for r in rows if r.systematicity_group.strip())
    largest = groups.most_common(1)[0][1] if groups else 0
    systematicity = round(10 * largest / len(rows), 2) if rows else 0.0
    depth = round(10 * sum(_DEPTH_WEIGHT.get(r.mapping_type, 0.0) for r in rows) / len(rows), 2) if rows else 0.0
    higher = sum(1 for r in rows if r.mapping_type is MappingType.HIGHER_ORDER)
    downstream = term_set(" ".join((h.observable, *h.failure_modes)))
    explanations = []
    for index in context.unpack_rows:
        row = rows[index]
        shared = sorted(term_set(f"{row.target_concept} {row.target_relation} {row.observable_link}") & downstream)
        explanations.append(
            review.RowExplanationOut(
                row=index,
                explanation=(
                    f"Row {index} ({row.target_concept}) shares {', '.join(shared[:5])} with the observable "
                    f"or failure modes: {h.observable}"
                    if shared
                    else f"No term of row {index}'s target side or link appears in the observable or failure modes."
                ),
                supports=bool(shared),
            )
        )
    return review.MappingReviewOutput(
        hypothesis_id=h.id,
        explanations=explanations,
        rationale=f"{_NOTE}: the largest group holds {largest} of {len(rows)} rows; higher-order rows: {higher}.",
        systematicity=systematicity,
        depth=depth,
        higher_order_mapped=higher > 0,
    )
