"""Relevance and distance of a source domain to a problem, from the problem's own words."""

from __future__ import annotations

import math
import random

import pytest
from support.knowledge_examples import make_domain

from forge.core.domain_types import SemanticDistance
from forge.core.explore.library_records import ScienceField
from forge.core.explore.source_domain_distance import cosine, distance_band, domain_similarity, measure_proximity

PROBLEM = "Our checkout queue gets long every lunchtime and customers leave before paying."


def test_a_domain_about_the_problems_own_subject_is_closer_than_an_unrelated_one() -> None:
    queues = make_domain("queues", summary="Studies checkout queue length, waiting customers and lunchtime peaks.")
    glaciers = make_domain("glaciers", summary="Studies ice sheets, moraines and crevasse formation.")
    assert measure_proximity(PROBLEM, queues).distance < measure_proximity(PROBLEM, glaciers).distance


def test_relevance_counts_cue_hits_double_and_ignores_generic_words() -> None:
    domain = make_domain("flow", cues=("queue", "customer"), relation="customers reduce waiting when lines pool")
    proximity = measure_proximity(PROBLEM, domain)
    assert proximity.cue_hits == ("customer", "queue")
    assert "reduce" not in proximity.structure_hits
    assert 0.0 < proximity.relevance <= 1.0
    assert measure_proximity("nothing shared here", domain).relevance == 0.0


def test_distance_bands_follow_the_thresholds() -> None:
    assert distance_band(0.1) is SemanticDistance.NEAR
    assert distance_band(0.6) is SemanticDistance.MEDIUM
    assert distance_band(0.9) is SemanticDistance.FAR


def test_supplied_vectors_replace_the_hashed_ones() -> None:
    domain = make_domain("glaciers", summary="Studies ice sheets.")
    same = measure_proximity("unrelated words", domain, problem_vector=[1.0, 0.0], subject_vector=[1.0, 0.0])
    opposite = measure_proximity("unrelated words", domain, problem_vector=[1.0, 0.0], subject_vector=[0.0, 1.0])
    assert same.distance == 0.0
    assert opposite.distance == 1.0


def test_domains_of_the_same_field_are_more_alike() -> None:
    a = make_domain("optics", field=ScienceField.PHYSICAL)
    b = make_domain("acoustics", field=ScienceField.PHYSICAL)
    c = make_domain("acoustics", field=ScienceField.SOCIAL)
    assert domain_similarity(a, b) > domain_similarity(a, c)


def test_cosine_is_the_textbook_formula_and_refuses_vectors_of_different_lengths() -> None:
    rng = random.Random(3)
    for _ in range(50):
        a = [rng.uniform(-1, 1) for _ in range(17)]
        b = [rng.uniform(-1, 1) for _ in range(17)]
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        expected = dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))
        assert cosine(a, b) == expected  # the same additions in the same order: the same float
    assert cosine([0.0, 0.0], [1.0, 2.0]) == 0.0
    with pytest.raises(ValueError, match="different lengths"):
        cosine([1.0, 2.0], [1.0])
