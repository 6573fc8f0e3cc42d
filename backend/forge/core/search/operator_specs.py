"""The SEARCH operators and what the planner knows of each (seed 000 §4.2): one `OperatorSpec` per
`SearchOperator` — which parents it takes, whether it is heavy, whether it is grounded on the HKG
before its call. The engine's half of an operator (its request, what an answer becomes, its
instructions) is `forge.engine.search.operator_registry.OPERATOR_APPLICATIONS`.

Invariants:
    - `OPERATOR_SPECS` holds exactly one spec per operator, in the order of the enum; the round-level
      operators (`Placement.round_level`) are placed after the per-seed ones in this order
      (combine, blend_expand, transform_space).
    - An operator is *paired* when its placement gives it two parents; asked with one (a seed
      without a partner, or a paired operator listed per seed) it degrades like an exhausted quota.
    - `HEAVY_OPERATORS`, `PAIRED_OPERATORS` and `STRUCTURAL_OPERATORS` are read off the specs,
      never listed apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class SearchOperator(str, Enum):
    REFINE = "refine"
    VARIANT = "variant"
    COMBINE = "combine"
    OPPOSE = "oppose"
    EXTREME = "extreme"
    HYPERPATH_EXPAND = "hyperpath_expand"
    HYPERBRIDGE = "hyperbridge"
    BLEND_EXPAND = "blend_expand"
    TRANSFORM_SPACE = "transform_space"


class Placement(str, Enum):
    """Where the planner puts an operator and which parents it gets."""

    PER_SEED = "per_seed"  # each seed, when the profile's `per_hypothesis` names it
    SEED_AND_DISTANT_PARTNER = "seed_and_distant_partner"  # per seed, with the farthest other-domain seed
    CONSECUTIVE_PAIRS = "consecutive_pairs"  # after the per-seed ones: seeds 1+2, 2+3, …
    CROSS_DOMAIN_PAIRS = "cross_domain_pairs"  # after them: each seed with its nearest other-domain seed
    BEST_SEEDS = "best_seeds"  # after them: the best seeds alone

    @property
    def round_level(self) -> bool:
        """Placed once per round over the seeds (count from the profile), not per seed."""
        return self in (Placement.CONSECUTIVE_PAIRS, Placement.CROSS_DOMAIN_PAIRS, Placement.BEST_SEEDS)

    @property
    def paired(self) -> bool:
        return self in (
            Placement.SEED_AND_DISTANT_PARTNER,
            Placement.CONSECUTIVE_PAIRS,
            Placement.CROSS_DOMAIN_PAIRS,
        )


@dataclass(frozen=True, slots=True)
class OperatorSpec:
    operator: SearchOperator
    placement: Placement
    heavy: bool = False  # never runs in the interactive profile
    structural: bool = False  # traverses the HKG first; no path, no call and no child

    @property
    def paired(self) -> bool:
        return self.placement.paired


OPERATOR_SPECS: tuple[OperatorSpec, ...] = (
    OperatorSpec(SearchOperator.REFINE, Placement.PER_SEED),
    OperatorSpec(SearchOperator.VARIANT, Placement.PER_SEED),
    OperatorSpec(SearchOperator.COMBINE, Placement.CONSECUTIVE_PAIRS),
    OperatorSpec(SearchOperator.OPPOSE, Placement.PER_SEED),
    OperatorSpec(SearchOperator.EXTREME, Placement.PER_SEED),
    OperatorSpec(SearchOperator.HYPERPATH_EXPAND, Placement.PER_SEED, structural=True),
    OperatorSpec(SearchOperator.HYPERBRIDGE, Placement.SEED_AND_DISTANT_PARTNER, heavy=True, structural=True),
    OperatorSpec(SearchOperator.BLEND_EXPAND, Placement.CROSS_DOMAIN_PAIRS, heavy=True),
    OperatorSpec(SearchOperator.TRANSFORM_SPACE, Placement.BEST_SEEDS, heavy=True),
)
SPEC_OF: dict[SearchOperator, OperatorSpec] = {s.operator: s for s in OPERATOR_SPECS}

HEAVY_OPERATORS = frozenset(s.operator for s in OPERATOR_SPECS if s.heavy)
PAIRED_OPERATORS = frozenset(s.operator for s in OPERATOR_SPECS if s.paired)
STRUCTURAL_OPERATORS = frozenset(s.operator for s in OPERATOR_SPECS if s.structural)
ROUND_LEVEL_SPECS = tuple(s for s in OPERATOR_SPECS if s.placement.round_level)
