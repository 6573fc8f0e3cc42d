"""SAGA Layer 1 (seed 000 §5.3): statistical anomaly detectors over one batch of scored hypotheses,
at zero model cost. Which checkpoints run them, and in what order, is `detector_table.DETECTORS`.

Invariants:
    - Each detector is a pure function of the batch (and its thresholds) returning a `Finding` or
      None; a batch too small for the statistic to mean anything returns None, never a guess.
    - Scores are on the 0..10 scale, one value per dimension (`ScoredHypothesis.scores`); the
      batch's composite is the weighted sum with the weights the supervisor currently holds.
    - score compression: population std of the composites < 0.8 (batch ≥ 4).
    - dimension collinearity: |Pearson r| > 0.7 between two dimensions (batch ≥ 5); one finding
      names the strongest pair as its statistic and lists every offending pair.
    - source-domain bias: one-way ANOVA of the composites across source domains with ≥ 2
      hypotheses each (≥ 2 such domains); fires when p < 0.05. The statistic is F.
    - shallow rewrite: a child whose words are within edit distance 0.35 of its parent's
      (normalised, see `saga_statistics.word_edit_distance`) while its composite moved ≥ 1.5.
    - diversity collapse: ≥ 60% of a batch of ≥ 5 in one mechanism family.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

from forge.core.saga.records import Finding, FindingKind, Severity
from forge.core.saga.statistics import one_way_anova, pearson, std, word_edit_distance

COMPRESSION_STD = 0.8
COLLINEARITY_R = 0.7
BIAS_ALPHA = 0.05
SHALLOW_DISTANCE = 0.35
SHALLOW_SCORE_CHANGE = 1.5
COLLAPSE_SHARE = 0.6
MIN_COMPRESSION_BATCH = 4
MIN_COLLINEARITY_BATCH = 5
MIN_PER_DOMAIN = 2


@dataclass(frozen=True, slots=True)
class ScoredHypothesis:
    id: str
    domain: str
    text: str
    scores: Mapping[str, float]  # dimension -> 0..10
    parents: tuple[str, ...] = ()
    family: str = ""  # behaviour descriptor: the mechanism family

    def composite(self, weights: Mapping[str, float]) -> float:
        total = sum(weights.get(d, 0.0) for d in self.scores)
        if total <= 0:
            return sum(self.scores.values()) / len(self.scores) if self.scores else 0.0
        return sum(weights.get(d, 0.0) * v for d, v in self.scores.items()) / total


@dataclass(frozen=True, slots=True)
class Batch:
    hypotheses: tuple[ScoredHypothesis, ...]
    weights: Mapping[str, float] = field(default_factory=dict)

    def composites(self) -> list[float]:
        return [h.composite(self.weights) for h in self.hypotheses]


def detect_score_compression(batch: Batch, threshold: float = COMPRESSION_STD) -> Finding | None:
    if len(batch.hypotheses) < MIN_COMPRESSION_BATCH:
        return None
    spread = std(batch.composites())
    if spread >= threshold:
        return None
    return Finding(
        FindingKind.SCORE_COMPRESSION,
        round(spread, 4),
        threshold,
        tuple(h.id for h in batch.hypotheses),
        f"The {len(batch.hypotheses)} scores spread by only {spread:.2f} (std < {threshold}): "
        "the scorer gives safe middle values and cannot tell these hypotheses apart.",
    )


def detect_collinearity(batch: Batch, threshold: float = COLLINEARITY_R) -> Finding | None:
    if len(batch.hypotheses) < MIN_COLLINEARITY_BATCH:
        return None
    dimensions = sorted(set.intersection(*(set(h.scores) for h in batch.hypotheses)))
    pairs: list[tuple[float, str, str]] = []
    for a, b in combinations(dimensions, 2):
        r = pearson([h.scores[a] for h in batch.hypotheses], [h.scores[b] for h in batch.hypotheses])
        if r is not None and abs(r) > threshold:
            pairs.append((abs(r), a, b))
    if not pairs:
        return None
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    strongest, a, b = pairs[0]
    named = ", ".join(f"{x}~{y} ({r:.2f})" for r, x, y in pairs)
    return Finding(
        FindingKind.DIMENSION_COLLINEARITY,
        round(strongest, 4),
        threshold,
        tuple(h.id for h in batch.hypotheses),
        f"Score dimensions move together (|r| > {threshold}): {named}. The scorer is effectively "
        f"using one hidden dimension; {b} adds little beyond {a}.",
        dimensions=tuple(f"{x}~{y}" for _, x, y in pairs),
    )


def detect_source_domain_bias(batch: Batch, alpha: float = BIAS_ALPHA) -> Finding | None:
    groups: dict[str, list[float]] = defaultdict(list)
    ids: dict[str, list[str]] = defaultdict(list)
    for h, score in zip(batch.hypotheses, batch.composites(), strict=True):
        groups[h.domain].append(score)
        ids[h.domain].append(h.id)
    eligible = {d: v for d, v in groups.items() if len(v) >= MIN_PER_DOMAIN}
    anova = one_way_anova(eligible)
    if anova is None or anova.p_value >= alpha:
        return None
    ranked = sorted(anova.group_means.items(), key=lambda kv: (-kv[1], kv[0]))
    top, top_mean = ranked[0]
    bottom, bottom_mean = ranked[-1]
    return Finding(
        FindingKind.SOURCE_DOMAIN_BIAS,
        round(anova.f, 4) if anova.f != float("inf") else 1e9,
        alpha,
        tuple(ids[top]),
        f"Scores differ by source domain (one-way ANOVA F({anova.df_between}, {anova.df_within}) = "
        f"{anova.f:.2f}, p = {anova.p_value:.4f} < {alpha}): {top} averages {top_mean:.2f}, "
        f"{bottom} {bottom_mean:.2f}. Ask whether {top} is better or only scored more kindly.",
        p_value=round(anova.p_value, 6),
        dimensions=tuple(d for d, _ in ranked),
    )


def detect_shallow_rewrites(
    children: Batch,
    parents: Mapping[str, ScoredHypothesis],
    max_distance: float = SHALLOW_DISTANCE,
    min_change: float = SHALLOW_SCORE_CHANGE,
) -> Finding | None:
    offenders: list[tuple[str, float, float]] = []
    for child in children.hypotheses:
        for parent_id in child.parents:
            parent = parents.get(parent_id)
            if parent is None:
                continue
            change = child.composite(children.weights) - parent.composite(children.weights)
            if abs(change) < min_change:  # the score held: no edit distance needed (the costly part)
                continue
            distance = word_edit_distance(parent.text, child.text)
            if distance <= max_distance:
                offenders.append((child.id, distance, change))
                break
    if not offenders:
        return None
    worst = max(abs(change) for _, _, change in offenders)
    named = "; ".join(f"{cid}: {d:.0%} of words changed, score {c:+.2f}" for cid, d, c in offenders)
    return Finding(
        FindingKind.SHALLOW_REWRITE,
        round(worst, 4),
        min_change,
        tuple(cid for cid, _, _ in offenders),
        f"Surface rewrites moved the score (edit distance ≤ {max_distance:.0%}, |Δscore| ≥ {min_change}): "
        f"{named}. A score that moves without the idea changing is being gamed.",
    )


def detect_diversity_collapse(batch: Batch, share: float = COLLAPSE_SHARE) -> Finding | None:
    families = [h.family for h in batch.hypotheses if h.family]
    if len(families) < MIN_COLLINEARITY_BATCH:
        return None
    family, count = sorted(Counter(families).items(), key=lambda kv: (-kv[1], kv[0]))[0]
    observed = count / len(families)
    if observed < share:
        return None
    return Finding(
        FindingKind.DIVERSITY_COLLAPSE,
        round(observed, 4),
        share,
        tuple(h.id for h in batch.hypotheses if h.family == family),
        f"{count} of {len(families)} hypotheses use the same mechanism family ({family}): "
        "the pool is collapsing onto one kind of idea.",
        severity=Severity.INFO,
        dimensions=(family,),
    )
