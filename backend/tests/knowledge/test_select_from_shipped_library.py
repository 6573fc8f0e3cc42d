"""The source-domain selector over the shipped library, for real problems: count, spread, filter."""

from __future__ import annotations

from collections import Counter

import pytest

from forge.core.domain_types import SemanticDistance
from forge.core.explore.select_source_domains import select_for_problem
from forge.knowledge.load_knowledge import load_source_domains

DOMAINS = load_source_domains()
PROBLEMS = (
    "How can a hospital cut emergency wait times without more staff?",
    "How can we reduce churn of open-source contributors?",
    "Reduce traffic congestion in the city centre without building new roads.",
    "Our bakery throws away too much bread at the end of the day.",
)


@pytest.mark.parametrize("problem", PROBLEMS)
def test_chooses_eighteen_to_thirty_domains_from_at_least_four_fields(problem: str) -> None:
    selection = select_for_problem(problem, DOMAINS)
    assert 18 <= len(selection.chosen) <= 30
    assert selection.shortfall is None
    by_id = {d.id: d for d in DOMAINS}
    fields = Counter(by_id[c.domain_id].field for c in selection.chosen)
    assert len(fields) >= 4, fields
    assert all(c.reason for c in selection.chosen)


def test_the_problems_own_field_is_filtered_as_not_distant() -> None:
    selection = select_for_problem(PROBLEMS[2], DOMAINS)
    filtered = {v.domain_id for v in selection.filtered_out}
    assert "traffic_flow" in filtered
    assert all(c.band is not SemanticDistance.NEAR for c in selection.chosen)


def test_a_suggested_domain_leads_and_a_restriction_is_honoured() -> None:
    selection = select_for_problem(PROBLEMS[0], DOMAINS, suggested=["linguistics"])
    assert selection.chosen[0].domain_id == "linguistics"
    restricted = select_for_problem(PROBLEMS[0], DOMAINS, restricted_to=["ecology", "seismology"])
    assert {c.domain_id for c in restricted.chosen} == {"ecology", "seismology"}


def test_selection_is_deterministic() -> None:
    assert select_for_problem(PROBLEMS[1], DOMAINS) == select_for_problem(PROBLEMS[1], DOMAINS)
