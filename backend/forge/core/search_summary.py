"""One SEARCH round as the state keeps it (seed 000 §4.2.1): counts and the seeds; the children
themselves are in the hypothesis pool, each with its operator and parents.

Rejected transform proposals live only here (as audit records), never in the pool.

Invariant: `round` is the session round the search ran in, so the SYNTHESIZE stage runs once per
round (a resumed run does not search twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forge.core.hypothesis_pool import HypothesisId
from forge.core.transform_gate import TransformRecord


@dataclass(frozen=True, slots=True)
class SearchSummary:
    round: int
    profile: str  # the runtime profile's name
    method: str  # how seeds were selected: mome, pareto or composite
    seeds: tuple[HypothesisId, ...]
    eligible: int  # hypotheses that passed the mapping gate
    calls: int
    children: int  # kept after near-duplicates among them were merged
    operators: dict[str, int] = field(default_factory=dict)  # children per operator
    degraded: int = 0
    skipped: int = 0
    failed: int = 0
    coverage_ratio: float | None = None  # MOME only
    transforms: tuple[TransformRecord, ...] = ()  # Transform Gate records: ACCEPTED and REJECTED (audit)
    ungrounded: int = 0  # HKG applications whose traversal found no path (no call, no evidence)
    concept_space: str = ""  # the concept space transform_space worked on
    hkg_paths: dict[str, int] = field(default_factory=dict)  # HKG traversal outcomes by event name
