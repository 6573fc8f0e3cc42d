"""Starring from the whole hypothesis pool at the explore review (issue 11 item 8): a starred pool
hypothesis becomes a starred analogy of the state, so SYNTHESIZE builds on it like on the agent's own.

Invariants:
    - The person names pool hypotheses by id; the service reads them from the session's pool and
      `resolve_pool_stars` refuses the review (nothing applied) when an id is not in that pool.
    - A hypothesis starred twice (in two reviews, or one already carried over) is one analogy.
    - The analogy keeps the hypothesis's mapping table (source relation → target relation), its
      observable, its first failure mode and its id, so the claim built on it traces back to the pool.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from uuid import UUID

from forge.core.domain_types import AnalogyId, SemanticDistance
from forge.core.explore.select_source_domains import DomainSelection
from forge.core.hypotheses.pool import Hypothesis
from forge.core.review.inputs import ExploreReview, ReviewRejection, invalid_review
from forge.core.session.records import Analogy, MappingRow

MAX_POOL_STARS = 12


def resolve_pool_stars(review: ExploreReview, found: Mapping[str, Hypothesis]) -> ExploreReview | ReviewRejection:
    """The review with the starred pool hypotheses attached, or why not."""
    wanted = list(dict.fromkeys(review.starred_hypotheses))
    if len(wanted) > MAX_POOL_STARS:
        return invalid_review(f"starred_hypotheses may star at most {MAX_POOL_STARS} hypotheses; got {len(wanted)}.")
    missing = [h for h in wanted if h not in found]
    if missing:
        return invalid_review(
            f"starred_hypotheses names {', '.join(repr(m) for m in missing[:5])}, not in this session's pool: "
            "use the ids from GET /api/v1/sessions/{id}/hypotheses."
        )
    return replace(review, pool_stars=tuple(found[h] for h in wanted))


def _distance(domain_id: str, selection: DomainSelection | None) -> SemanticDistance:
    chosen = {d.domain_id: d.band for d in selection.chosen} if selection is not None else {}
    return chosen.get(domain_id, SemanticDistance.FAR)


def analogy_from_hypothesis(h: Hypothesis, analogy_id: UUID, selection: DomainSelection | None) -> Analogy:
    rows = tuple(
        MappingRow(r.source_concept, r.target_concept, f"{r.source_relation} → {r.target_relation}")
        for r in h.mapping.rows
    )
    return Analogy(
        AnalogyId(analogy_id),
        h.domain_name,
        h.title,
        f"{h.structure}: {h.statement} Mechanism: {h.mechanism}",
        _distance(h.domain_id, selection),
        rows,
        h.observable,
        h.failure_modes[0] if h.failure_modes else "",
        starred=True,
        hypothesis_id=h.id,
        mapping_score=round(h.gate.mapping_score, 1),
    )


def star_pool_hypotheses(
    analogies: Sequence[Analogy],
    stars: Sequence[Hypothesis],
    new_ids: Sequence[UUID],
    selection: DomainSelection | None,
) -> list[Analogy]:
    """`analogies` with every starred hypothesis as a starred analogy (an existing one is re-starred)."""
    by_hypothesis = {a.hypothesis_id: i for i, a in enumerate(analogies) if a.hypothesis_id}
    result = list(analogies)
    for h, analogy_id in zip(stars, new_ids, strict=True):
        if h.id in by_hypothesis:
            result[by_hypothesis[h.id]] = replace(result[by_hypothesis[h.id]], starred=True)
        else:
            result.append(analogy_from_hypothesis(h, analogy_id, selection))
    return result
