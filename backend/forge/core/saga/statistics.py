"""The statistics SAGA's Layer 1 needs (seed 000 §5.3), computed here with `math` only.

Invariants:
    - Pure and deterministic; no SciPy. The F distribution's upper tail is the regularised
      incomplete beta function: P(F > f; d1, d2) = I_x(d2/2, d1/2) with x = d2 / (d2 + d1·f),
      evaluated by Lentz's continued fraction (Numerical Recipes §6.4), using the symmetry
      I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
    - Degenerate input is a value, never an exception: a correlation of a constant series is None;
      an ANOVA with fewer than two groups, or no within-group degrees of freedom, is None; an ANOVA
      whose groups are each constant but differ has F = inf and p = 0.
    - `word_edit_distance` is Levenshtein over lower-cased word tokens, normalised by the longer
      text's token count (0 = same words, 1 = nothing in common).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_EPS = 3e-14
_TINY = 1e-300
_MAX_ITER = 300
_WORD = re.compile(r"\w+", re.UNICODE)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def std(values: Sequence[float]) -> float:
    """The population standard deviation (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r of two equally long series; None when either is constant or shorter than 3."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    mx, my = mean(xs), mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_ITER + 1):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b) for a, b > 0 and x in [0, 1]."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def f_survival(f: float, d1: float, d2: float) -> float:
    """P(F > f) for the F distribution with (d1, d2) degrees of freedom."""
    if math.isinf(f):
        return 0.0
    if f <= 0.0:
        return 1.0
    return regularized_incomplete_beta(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f))


@dataclass(frozen=True, slots=True)
class Anova:
    f: float
    p_value: float
    df_between: int
    df_within: int
    group_means: dict[str, float]


def one_way_anova(groups: Mapping[str, Sequence[float]]) -> Anova | None:
    """One-way ANOVA across the non-empty groups; None with < 2 groups or no within-group freedom."""
    kept = {name: list(values) for name, values in groups.items() if values}
    n = sum(len(v) for v in kept.values())
    k = len(kept)
    if k < 2 or n - k < 1:
        return None
    grand = mean([x for values in kept.values() for x in values])
    means = {name: mean(values) for name, values in kept.items()}
    ss_between = sum(len(values) * (means[name] - grand) ** 2 for name, values in kept.items())
    ss_within = sum((x - means[name]) ** 2 for name, values in kept.items() for x in values)
    df_b, df_w = k - 1, n - k
    constant = math.inf if ss_between > 1e-12 else 0.0
    f = constant if ss_within <= 1e-12 else (ss_between / df_b) / (ss_within / df_w)
    return Anova(f, f_survival(f, df_b, df_w), df_b, df_w, means)


def word_edit_distance(a: str, b: str) -> float:
    """Levenshtein distance over lower-cased words, divided by the longer token count."""
    xs, ys = _WORD.findall(a.casefold()), _WORD.findall(b.casefold())
    if not xs and not ys:
        return 0.0
    previous = list(range(len(ys) + 1))
    for i, x in enumerate(xs, start=1):
        current = [i]
        for j, y in enumerate(ys, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1] / max(len(xs), len(ys))
