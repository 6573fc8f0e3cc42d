"""What one SEARCH round will do (seed 000 §4.2.1, §4.2.5): which operator is applied to which
parents, under the runtime profile's per-round quotas, before any model is called.

Invariants:
    - Operators run in the seed's order per seed hypothesis (the profile's `per_hypothesis`, e.g.
      refine, variant, oppose, extreme), then `combine` over consecutive pairs of seeds.
    - An operator named in the round's quotas may run at most that many times in the round; a quota
      of 0 disables it. When its quota is exhausted the application DEGRADES to `variant`, else
      `refine`, whichever that parent has not had this round (`degraded_from` says what was asked);
      when both were had, it is skipped. Operators without a quota are limited only by `max_calls`.
    - At most `max_calls` applications per round; the rest are skipped and counted.
    - The plan is a pure function of the seeds and the profile: same input, same plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise

from forge.core.hypothesis_pool import HypothesisId


class SearchOperator(str, Enum):
    REFINE = "refine"
    VARIANT = "variant"
    COMBINE = "combine"
    OPPOSE = "oppose"
    EXTREME = "extreme"


class RuntimeProfile(str, Enum):
    INTERACTIVE = "interactive"
    RESEARCH = "research"


DEGRADE_TO = (SearchOperator.VARIANT, SearchOperator.REFINE)


@dataclass(frozen=True, slots=True)
class SearchProfile:
    name: RuntimeProfile
    top_n: int  # seeds selected per round
    per_hypothesis: tuple[SearchOperator, ...]
    combine_pairs: int  # combine applications asked per round (before quotas)
    quotas: Mapping[SearchOperator, int] = field(default_factory=dict)
    max_calls: int = 12


PROFILES: dict[RuntimeProfile, SearchProfile] = {
    # Low latency: three seeds, no `variant` unless degraded into, tight quotas on the costlier ops.
    RuntimeProfile.INTERACTIVE: SearchProfile(
        RuntimeProfile.INTERACTIVE,
        top_n=3,
        per_hypothesis=(SearchOperator.REFINE, SearchOperator.OPPOSE, SearchOperator.EXTREME),
        combine_pairs=1,
        quotas={SearchOperator.OPPOSE: 2, SearchOperator.EXTREME: 1, SearchOperator.COMBINE: 1},
        max_calls=10,
    ),
    RuntimeProfile.RESEARCH: SearchProfile(
        RuntimeProfile.RESEARCH,
        top_n=6,
        per_hypothesis=(SearchOperator.REFINE, SearchOperator.VARIANT, SearchOperator.OPPOSE, SearchOperator.EXTREME),
        combine_pairs=3,
        quotas={SearchOperator.OPPOSE: 6, SearchOperator.EXTREME: 4, SearchOperator.COMBINE: 3},
        max_calls=40,
    ),
}


@dataclass(frozen=True, slots=True)
class OperatorApplication:
    operator: SearchOperator
    parents: tuple[HypothesisId, ...]
    degraded_from: SearchOperator | None = None


@dataclass(frozen=True, slots=True)
class RoundPlan:
    applications: tuple[OperatorApplication, ...]
    degraded: int
    skipped: int


class _Budget:
    def __init__(self, profile: SearchProfile, quotas: Mapping[SearchOperator, int]) -> None:
        self._left = dict(quotas)
        self._calls_left = profile.max_calls
        self.applications: list[OperatorApplication] = []
        self.done: set[tuple[SearchOperator, HypothesisId]] = set()
        self.degraded = 0
        self.skipped = 0

    def place(self, operator: SearchOperator, parents: tuple[HypothesisId, ...]) -> None:
        chosen: SearchOperator | None = operator
        asked = None
        if self._left.get(operator, 1) <= 0:
            chosen = next((op for op in DEGRADE_TO if (op, parents[0]) not in self.done), None)
            asked = operator
            parents = parents[:1]  # a degraded combine refines (or varies) its first parent
        if chosen is None or self._calls_left <= 0:
            self.skipped += 1
            return
        if chosen in self._left:
            self._left[chosen] -= 1
        self._calls_left -= 1
        self.degraded += asked is not None
        self.done.add((chosen, parents[0]))
        self.applications.append(OperatorApplication(chosen, parents, asked))


def plan_search_round(
    seeds: Sequence[HypothesisId], profile: SearchProfile, quotas: Mapping[SearchOperator, int] | None = None
) -> RoundPlan:
    """The round's applications over `seeds` (best first), with `quotas` overriding the profile's."""
    budget = _Budget(profile, profile.quotas if quotas is None else quotas)
    for seed in seeds:
        for operator in profile.per_hypothesis:
            budget.place(operator, (seed,))
    pairs = list(pairwise(seeds))[: profile.combine_pairs]
    for first, second in pairs:
        budget.place(SearchOperator.COMBINE, (first, second))
    return RoundPlan(tuple(budget.applications), budget.degraded, budget.skipped)
