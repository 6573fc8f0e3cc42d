"""How relevant and how distant a source domain is to a problem, computed from the problem's words.

Two separate signals, because a good analogy source is *structurally* relevant yet *topically* far:
    relevance  how many of the problem's content terms hit the domain's cue terms (the words of
               problems its structures fit: "waste", "backlog", "burnout") or its structures' own
               text (mechanism, relation, dynamics; `GENERIC_TERMS` do not count); saturates at
               `RELEVANCE_SATURATION` weighted hits.
    distance   1 - similarity between the problem and what the domain is *about* (its name, summary
               and key variables): a noisy-OR of the cosine of their vectors and the share of problem
               terms found in that subject text. Vectors are passed in (a real embedder through the
               shell) or default to the deterministic hashed text vector.

Invariants: pure and deterministic; both values lie in [0, 1]; `distance_band` maps a distance to
near / medium / far with fixed thresholds (`NEAR_BELOW`, `FAR_FROM`).
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.domain_types import SemanticDistance
from forge.core.explore.library_records import SourceDomain
from forge.core.hkg.hashed_text_vector import hashed_text_vector
from forge.core.research.text_terms import fold, term_set

CUE_HIT_WEIGHT = 2.0
STRUCTURE_HIT_WEIGHT = 1.0
RELEVANCE_SATURATION = 8.0
# Words too general to signal that a structure fits ("reduce the day's end" fits everything).
GENERIC_TERMS = frozenset(
    "reduce increase improve make keep new end day time without need use way get lot much many "
    "less fewer high low large small good bad better best work thing problem".split()
)
NEAR_BELOW = 0.55
FAR_FROM = 0.75


@dataclass(frozen=True, slots=True)
class DomainProximity:
    domain_id: str
    relevance: float
    distance: float
    cue_hits: tuple[str, ...]
    structure_hits: tuple[str, ...]

    @property
    def band(self) -> SemanticDistance:
        return distance_band(self.distance)


def subject_text(domain: SourceDomain) -> str:
    """What the domain is about (not the problems it fits): name, summary, key variables."""
    variables = " ".join(f"{v.name} {v.meaning}" for v in domain.key_variables)
    return f"{domain.name} {domain.summary} {variables}"


def structure_text(domain: SourceDomain) -> str:
    return " ".join(s.text for s in domain.structures)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b):
        raise ValueError(f"cosine of vectors of different lengths ({len(a)} and {len(b)})")
    # map(mul) adds the same products in the same order as a generator would (the same float),
    # in C: ranking the library and recalling memory take thousands of these per session.
    dot = sum(map(operator.mul, a, b))
    norm = math.sqrt(sum(map(operator.mul, a, a))) * math.sqrt(sum(map(operator.mul, b, b)))
    return dot / norm if norm > 0 else 0.0


def distance_band(distance: float) -> SemanticDistance:
    if distance < NEAR_BELOW:
        return SemanticDistance.NEAR
    return SemanticDistance.FAR if distance >= FAR_FROM else SemanticDistance.MEDIUM


def measure_proximity(
    problem_text: str,
    domain: SourceDomain,
    *,
    problem_vector: Sequence[float] | None = None,
    subject_vector: Sequence[float] | None = None,
) -> DomainProximity:
    problem_terms = term_set(problem_text)
    cues = {fold(c.lower()) for c in domain.cue_terms}
    cue_hits = tuple(sorted(problem_terms & cues))
    structure_terms = term_set(structure_text(domain)) - GENERIC_TERMS
    structure_hits = tuple(sorted((problem_terms & structure_terms) - set(cue_hits)))
    weighted = CUE_HIT_WEIGHT * len(cue_hits) + STRUCTURE_HIT_WEIGHT * len(structure_hits)
    relevance = min(1.0, weighted / RELEVANCE_SATURATION)
    subject = subject_text(domain)
    vector_a = problem_vector if problem_vector is not None else hashed_text_vector(problem_text)
    vector_b = subject_vector if subject_vector is not None else hashed_text_vector(subject)
    overlap = len(problem_terms & term_set(subject)) / len(problem_terms) if problem_terms else 0.0
    similarity = 1.0 - (1.0 - max(0.0, cosine(vector_a, vector_b))) * (1.0 - overlap)
    return DomainProximity(domain.id, relevance, round(1.0 - similarity, 6), cue_hits, structure_hits)


SAME_FIELD_SIMILARITY = 0.35


def domain_similarity(
    a: SourceDomain, b: SourceDomain, vector_a: Sequence[float] | None = None, vector_b: Sequence[float] | None = None
) -> float:
    """How alike two domains are (for diversity): subject-vector cosine, raised when they share a field."""
    same_field = a.field == b.field
    if vector_a is None and vector_b is None:
        return _subject_similarity(subject_text(a), subject_text(b), same_field)
    va = vector_a if vector_a is not None else hashed_text_vector(subject_text(a))
    vb = vector_b if vector_b is not None else hashed_text_vector(subject_text(b))
    return _similarity(va, vb, same_field)


@functools.lru_cache(maxsize=4096)  # pure; a library's pairs recur in every selection of a process
def _subject_similarity(subject_a: str, subject_b: str, same_field: bool) -> float:
    return _similarity(hashed_text_vector(subject_a), hashed_text_vector(subject_b), same_field)


def _similarity(va: Sequence[float], vb: Sequence[float], same_field: bool) -> float:
    return min(1.0, max(0.0, cosine(va, vb)) + (SAME_FIELD_SIMILARITY if same_field else 0.0))
