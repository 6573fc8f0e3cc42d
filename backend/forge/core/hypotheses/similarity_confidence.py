"""Similarity-based C-values (seed 004 §10): bands of cosine similarity and the C rules that use them.

Cosines are those of the sentence embedder (all-MiniLM-L6-v2, the model the seed's bands were
measured with). Measured here (`bench/bench_similarity_bands.py` and probes): the seed's own pair
"Energy and information are connected" / "Information requires energy" 0.81; case and punctuation
variations 0.978–1.0; unrelated pairs -0.1–0.07 — as the seed says. Freely reworded paraphrases run
lower than its 0.70–0.90 (0.37–0.81, mean 0.65) and same-field "related" pairs mostly fall in its
weak band (0.31–0.56, mean 0.41). The thresholds are kept as the seed has them: lowering
SAME_HYPOTHESIS_SIMILARITY is unsafe — "X" / "X does not hold" is 0.968, "beds cut waits" / "beds
alone cut waits" 0.969, "higher" / "lower temperature speeds the reaction" 0.961 — and a cosine cannot
see negation, so two claims that opposite verdicts leave consistent ("X" rejected, "not X" accepted)
read as a conflict at 0.97. That is the known weakness of inferring conflict from verdicts.

Invariants:
    - Pure functions of floats; each returns a C in [C_MIN, C_MAX] (or its input where a rule allows).
    - A boost never lowers C, a penalty never raises it; a larger similarity never gives a smaller
      boost or penalty (the bands are monotone).
    - Episodes interact (mutual support, conflict) only from INTERACTION_MIN_SIMILARITY (0.7, the
      paraphrase band) up. A cosine cannot tell a contradiction from an alternative: opposite verdicts
      on two texts that say nearly the same thing are a conflict, but on merely related texts (0.5–0.7,
      e.g. "triage cuts waits" and "more beds cut waits", 0.53) they are two answers to one question,
      and one being wrong says nothing against the other. So the seed's lowest conflict and support
      bands (≤ 0.6 / ≤ 0.7) never fire; the formulas keep them for a caller that knows of a conflict.
"""

from __future__ import annotations

from enum import StrEnum

from forge.core.hypotheses.confidence import C_MAX, C_MIN, INITIAL_C

SAME_HYPOTHESIS_SIMILARITY = 0.98  # §10.1 "identical/variations": one hypothesis, one episode
INTERACTION_MIN_SIMILARITY = 0.7  # §10.1 "semantic paraphrase" and above
CONFLICT_INITIAL_C = 0.15


class SimilarityBand(StrEnum):
    """§10.1: what a cosine between two texts means."""

    IDENTICAL = "identical"  # ≥ 0.98
    PARAPHRASE = "paraphrase"  # 0.70 – 0.98
    RELATED = "related"  # 0.50 – 0.70
    WEAK = "weak"  # 0.30 – 0.50
    UNRELATED = "unrelated"  # < 0.30


def band_of(similarity: float) -> SimilarityBand:
    if similarity >= SAME_HYPOTHESIS_SIMILARITY:
        return SimilarityBand.IDENTICAL
    if similarity >= 0.7:
        return SimilarityBand.PARAPHRASE
    if similarity >= 0.5:
        return SimilarityBand.RELATED
    if similarity >= 0.3:
        return SimilarityBand.WEAK
    return SimilarityBand.UNRELATED


def _raised(c: float, boost: float) -> float:
    return min(C_MAX, c + (1 - c) * boost)


def query_match_boost(similarity: float) -> float:
    """§10.2 query match: > 0.9 → 0.15, > 0.7 → 0.10, > 0.5 → 0.05, else 0.02."""
    if similarity > 0.9:
        return 0.15
    if similarity > 0.7:
        return 0.10
    if similarity > 0.5:
        return 0.05
    return 0.02


def query_matched(c: float, similarity: float) -> float:
    """A new question retrieved this hypothesis: c + (1 - c)·boost, at most 0.95."""
    return _raised(c, query_match_boost(similarity))


def conflict_penalty(similarity: float) -> float:
    """§10.2 conflict: > 0.8 → 0.3, > 0.6 → 0.15, else 0.05."""
    if similarity > 0.8:
        return 0.3
    if similarity > 0.6:
        return 0.15
    return 0.05


def conflicted(c: float, similarity: float) -> float:
    """A conflicting hypothesis at this similarity: c·(1 - penalty), at least 0.05."""
    return max(C_MIN, c * (1 - conflict_penalty(similarity)))


def mutual_support_boost(similarity: float) -> float:
    """§10.2 mutual support: > 0.7 → 0.08, else 0.03."""
    return 0.08 if similarity > 0.7 else 0.03


def mutually_supported(c: float, similarity: float) -> float:
    """A reinforcing hypothesis at this similarity: c + (1 - c)·boost, at most 0.95."""
    return _raised(c, mutual_support_boost(similarity))


def initial_c(max_similarity: float, conflicts_with_nearest: bool) -> float:
    """§10.3: 0.15 when the nearest existing hypothesis conflicts, 0.4 above 0.8, 0.35 above 0.5, else 0.3."""
    if conflicts_with_nearest:
        return CONFLICT_INITIAL_C
    if max_similarity > 0.8:
        return 0.4
    if max_similarity > 0.5:
        return 0.35
    return INITIAL_C
