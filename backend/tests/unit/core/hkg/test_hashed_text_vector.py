"""The offline text vector: deterministic, unit length, near for shared spelling, far otherwise."""

from __future__ import annotations

import math

from forge.core.hkg.hashed_text_vector import hashed_text_vector


def _cosine(a: str, b: str) -> float:
    return sum(x * y for x, y in zip(hashed_text_vector(a), hashed_text_vector(b), strict=True))


def test_the_same_text_gives_the_same_unit_vector() -> None:
    vector = hashed_text_vector("heat flux")
    assert vector == hashed_text_vector("heat flux")
    assert math.isclose(sum(v * v for v in vector), 1.0)
    assert len(vector) == 256


def test_text_without_words_gives_the_zero_vector() -> None:
    assert not any(hashed_text_vector("!?", dimensions=16))


def test_plural_and_case_fold_to_the_same_vector_and_shared_stems_are_nearer_than_unrelated_words() -> None:
    assert math.isclose(_cosine("Queues", "queue"), 1.0)
    assert _cosine("queueing", "queue") > 0.3
    assert _cosine("thermal", "thermodynamics") > _cosine("thermal", "banana") + 0.2
