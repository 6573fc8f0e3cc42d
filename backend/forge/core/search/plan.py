"""What one SEARCH round will do (seed 000 §4.2.1, §4.2.5): which operator is applied to which
parents, under the runtime profile's per-round quotas, before any model is called.

Invariants:
    - What the planner knows of an operator (its parents, heavy or not) is its `OperatorSpec`
      (`operator_specs.py`); nothing here lists operators by property.
    - Operators run in the seed's order per seed hypothesis (the profile's `per_hypothesis`, e.g.
      refine, oppose, extreme, then the HKG operators hyperpath_expand and hyperbridge), then
      `combine` over consecutive pairs of seeds, `blend_expand` over pairs of seeds from different
      domains, and `transform_space` on the best seeds.
    - `hyperbridge` pairs a seed with a partner seed from ANOTHER source domain (the farthest such
      seed in the selection order); a seed with no such partner degrades like an exhausted quota.
    - The heavy operators (`HEAVY_OPERATORS`: hyperbridge, blend_expand, transform_space) never run
      in the `interactive` profile: there they degrade whatever the quotas say.
    - An operator named in the round's quotas may run at most that many times in the round; a quota
      of 0 disables it. When its quota is exhausted the application DEGRADES to `variant`, else
      `refine`, whichever that parent has not had this round (`degraded_from` says what was asked);
      when both were had, it is skipped. Operators without a quota are limited only by `max_calls`.
    - At most `max_calls` applications per round; the rest are skipped and counted.
    - A profile runs `search_depth` rounds per session round (interactive 1, research 2); the quotas
      and `max_calls` are per round: every round starts with a fresh budget.
    - The plan is a pure function of the seeds and the profile: same input, same plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise

from forge.core.hypotheses.pool import HypothesisId

# HEAVY_OPERATORS and SearchOperator are re-exported: the planner's callers have always found them here.
from forge.core.search.operator_specs import HEAVY_OPERATORS as HEAVY_OPERATORS
from forge.core.search.operator_specs import (
    PAIRED_OPERATORS,
    ROUND_LEVEL_SPECS,
    SPEC_OF,
    Placement,
)
from forge.core.search.operator_specs import SearchOperator as SearchOperator


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
    blend_pairs: int = 0  # blend_expand applications asked per round (before quotas)
    transforms: int = 0  # transform_space applications asked per round (before quotas)
    search_depth: int = 1  # SEARCH rounds per session round, each with its own quotas

    def asked_per_round(self, operator: SearchOperator) -> int:
        """How many applications of a round-level operator (`Placement.round_level`) a round asks for."""
        asked = {
            SearchOperator.COMBINE: self.combine_pairs,
            SearchOperator.BLEND_EXPAND: self.blend_pairs,
            SearchOperator.TRANSFORM_SPACE: self.transforms,
        }
        return asked.get(operator, 0)


PROFILES: dict[RuntimeProfile, SearchProfile] = {
    # Low latency: three seeds, no heavy operator, no `variant` unless degraded into, tight quotas.
    RuntimeProfile.INTERACTIVE: SearchProfile(
        RuntimeProfile.INTERACTIVE,
        top_n=3,
        per_hypothesis=(
            SearchOperator.REFINE,
            SearchOperator.OPPOSE,
            SearchOperator.EXTREME,
            SearchOperator.HYPERPATH_EXPAND,
        ),
        combine_pairs=1,
        quotas={
            SearchOperator.OPPOSE: 2,
            SearchOperator.EXTREME: 1,
            SearchOperator.COMBINE: 1,
            SearchOperator.HYPERPATH_EXPAND: 2,
            **dict.fromkeys(HEAVY_OPERATORS, 0),
        },
        max_calls=12,
        search_depth=1,
    ),
    # Deep exploration: six seeds, every operator; the heavy ones under per-round quotas, and what
    # exceeds them degrades to variant / refine.
    RuntimeProfile.RESEARCH: SearchProfile(
        RuntimeProfile.RESEARCH,
        top_n=6,
        per_hypothesis=(
            SearchOperator.REFINE,
            SearchOperator.OPPOSE,
            SearchOperator.EXTREME,
            SearchOperator.HYPERPATH_EXPAND,
            SearchOperator.HYPERBRIDGE,
        ),
        combine_pairs=3,
        quotas={
            SearchOperator.OPPOSE: 6,
            SearchOperator.EXTREME: 4,
            SearchOperator.COMBINE: 3,
            SearchOperator.HYPERPATH_EXPAND: 6,
            SearchOperator.HYPERBRIDGE: 3,
            SearchOperator.BLEND_EXPAND: 2,
            SearchOperator.TRANSFORM_SPACE: 1,
        },
        max_calls=40,
        blend_pairs=3,
        transforms=2,
        search_depth=2,
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
        if profile.name is RuntimeProfile.INTERACTIVE:
            self._left.update(dict.fromkeys(HEAVY_OPERATORS, 0))
        self._calls_left = profile.max_calls
        self.applications: list[OperatorApplication] = []
        self.done: set[tuple[SearchOperator, HypothesisId]] = set()
        self.degraded = 0
        self.skipped = 0

    def place(self, operator: SearchOperator, parents: tuple[HypothesisId, ...]) -> None:
        chosen: SearchOperator | None = operator
        asked = None
        unpaired = operator in PAIRED_OPERATORS and len(parents) < 2
        if unpaired or self._left.get(operator, 1) <= 0:
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


def distant_partner(
    seed: HypothesisId, seeds: Sequence[HypothesisId], domain_of: Mapping[HypothesisId, str]
) -> HypothesisId | None:
    """The seed farthest after `seed` (cyclically, in selection order) whose domain differs, or None."""
    at = seeds.index(seed)
    others = [seeds[(at + step) % len(seeds)] for step in range(len(seeds) - 1, 0, -1)]
    mine = domain_of.get(seed, seed)
    return next((o for o in others if domain_of.get(o, o) != mine), None)


def _cross_domain_pairs(
    seeds: Sequence[HypothesisId], domain_of: Mapping[HypothesisId, str]
) -> list[tuple[HypothesisId, HypothesisId]]:
    """Pairs of seeds from different domains, each seed with its nearest-ranked other-domain seed."""
    pairs: list[tuple[HypothesisId, HypothesisId]] = []
    for i, first in enumerate(seeds):
        second = next((s for s in seeds[i + 1 :] if domain_of.get(s, s) != domain_of.get(first, first)), None)
        if second is not None:
            pairs.append((first, second))
    return pairs


def plan_search_round(
    seeds: Sequence[HypothesisId],
    profile: SearchProfile,
    quotas: Mapping[SearchOperator, int] | None = None,
    domain_of: Mapping[HypothesisId, str] | None = None,
) -> RoundPlan:
    """The round's applications over `seeds` (best first), with `quotas` overriding the profile's.
    `domain_of` names each seed's source domain (a seed without one is its own domain)."""
    domains = domain_of or {}
    budget = _Budget(profile, profile.quotas if quotas is None else quotas)
    for seed in seeds:
        for operator in profile.per_hypothesis:
            partnered = SPEC_OF[operator].placement is Placement.SEED_AND_DISTANT_PARTNER
            partner = distant_partner(seed, seeds, domains) if partnered else None
            budget.place(operator, (seed,) if partner is None else (seed, partner))
    for spec in ROUND_LEVEL_SPECS:
        for parents in _round_parents(spec.placement, seeds, domains)[: profile.asked_per_round(spec.operator)]:
            budget.place(spec.operator, parents)
    return RoundPlan(tuple(budget.applications), budget.degraded, budget.skipped)


def _round_parents(
    placement: Placement, seeds: Sequence[HypothesisId], domains: Mapping[HypothesisId, str]
) -> list[tuple[HypothesisId, ...]]:
    """The parents a round-level operator is asked with, best first."""
    if placement is Placement.CONSECUTIVE_PAIRS:
        return list(pairwise(seeds))
    if placement is Placement.CROSS_DOMAIN_PAIRS:
        return list(_cross_domain_pairs(seeds, domains))
    return [(seed,) for seed in seeds]
