import random

import pytest
from support.plain_pattern_groups import plain_groups

from forge.core.saga.patterns import (
    FAVOURITE_MIN_PLACES,
    FAVOURITE_MIN_SCORE,
    PatternSighting,
    detect_favourite_patterns,
    favourite_patterns,
    group_patterns,
    same_pattern,
    semantic_hash,
)


def test_the_semantic_hash_of_a_text_never_changes_across_releases():
    # Sightings are stored across sessions: a new release must hash a pattern as the last one did.
    assert semantic_hash("Predator-prey cycles predator prey population") == 1359381447447394532
    assert semantic_hash("Ant colony pheromone trails stigmergy") == 4762149017092021962
    assert semantic_hash("queueing theory arrival rate service time") == 14917621830182670370


def test_the_semantic_hash_ignores_order_plurals_and_case():
    assert semantic_hash("Predator prey cycles") == semantic_hash("prey predators Cycle")
    assert not same_pattern(semantic_hash("predator prey cycles"), semantic_hash("ant colony pheromone trails"))
    assert semantic_hash("") == 0


def sighting(text, place, score):
    return PatternSighting(semantic_hash(text), text, place, score)


def test_a_pattern_seen_in_three_places_with_high_scores_is_a_favourite():
    history = [sighting("predator prey cycles", s, 7.0) for s in ("s1", "s2", "s3")]
    assert [f.places for f in favourite_patterns(history)] == [3]
    finding = detect_favourite_patterns([("h9", sighting("predator prey cycle", "s3", 7.0))], history)
    assert finding is not None and finding.hypothesis_ids == ("h9",)


def test_low_scores_or_few_places_are_not_favourites():
    assert favourite_patterns([sighting("predator prey cycles", s, 4.0) for s in ("s1", "s2", "s3")]) == []
    assert favourite_patterns([sighting("predator prey cycles", "s1", 9.0)] * 5) == []
    assert detect_favourite_patterns([("h", sighting("ant colony", "s1", 9))], []) is None


def random_history(rng: random.Random, lone_share: float, size: int, min_score: float) -> list[PatternSighting]:
    """Sightings near a few bases (0-5 flipped bits: near two leaders at once happens, so "first"
    matters) and, with `lone_share`, hashes of their own (most likely sharing no block with any other)."""
    bases = [rng.getrandbits(64) for _ in range(rng.randint(1, 12))]
    history = []
    for n in range(rng.randint(0, size)):
        flips = 0
        for _ in range(rng.randint(0, 5)):
            flips ^= 1 << rng.randrange(64)
        h = rng.getrandbits(64) if rng.random() < lone_share else rng.choice(bases) ^ flips
        history.append(PatternSighting(h, f"p{n}", f"s{rng.randrange(6)}", rng.uniform(min_score, 10)))
    return history


@pytest.mark.parametrize("seed", range(20))
def test_grouping_follows_the_first_group_rule_on_random_near_duplicate_hashes(seed):
    history = random_history(random.Random(seed), lone_share=0.0, size=400, min_score=0.0)
    assert group_patterns(history) == plain_groups(history)


@pytest.mark.parametrize("seed", range(20))
def test_favourites_are_those_of_the_plain_groups_among_lone_and_near_sightings(seed):
    history = random_history(random.Random(seed), lone_share=0.5, size=300, min_score=4.0)
    expected = []
    for group in plain_groups(history):
        places, score = len({s.place for s in group}), sum(s.score for s in group) / len(group)
        if places >= FAVOURITE_MIN_PLACES and score >= FAVOURITE_MIN_SCORE:
            expected.append((group[0].hash, group[0].label, places, round(score, 2)))
    assert [(f.hash, f.label, f.places, f.mean_score) for f in favourite_patterns(history)] == expected
    assert group_patterns(history) == plain_groups(history)


def test_the_largest_hashes_group_like_any_other():
    top = 2**64 - 1
    history = [
        PatternSighting(top, "a", "s1", 9.0),
        PatternSighting(top ^ 0b111, "b", "s2", 9.0),
        PatternSighting(0, "c", "s3", 9.0),
    ]
    assert [[s.label for s in g] for g in group_patterns(history)] == [["a", "b"], ["c"]]
