"""One SEARCH round as the state keeps it (seed 000 §4.2.1): counts and the seeds; the children
themselves are in the hypothesis pool, each with its operator and parents, and the few SYNTHESIZE's
brief offers as candidates (`candidates.py`) are kept here too.

Rejected transform proposals live only here (as audit records), never in the pool.

Invariants:
    - `round` is the session round the search ran in and `depth` how many SEARCH rounds of it ran
      (search_depth), so the SYNTHESIZE stage runs each of them once (a resumed run does not
      search twice).
    - With depth > 1 the summary covers every round of the session round: counts, operators,
      transforms and HKG outcomes are sums, `seeds` every round's seeds in order (`after_round`),
      `coverage_ratio` the latest round's.
    - `stalled`: the latest round had no seed or made no child, so a further round would find the
      pool as it was; no more rounds run this session round.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from forge.core.hypotheses.pool import HypothesisId
from forge.core.search.candidates import SearchCandidate
from forge.core.search.transform_gate import TransformRecord


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
    depth: int = 1  # SEARCH rounds run in this session round
    stalled: bool = False  # the latest round expanded nothing or made nothing
    candidates: tuple[SearchCandidate, ...] = ()  # children SYNTHESIZE's brief offers (every round's, in order)


def _summed(first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    return {key: first.get(key, 0) + second.get(key, 0) for key in {**first, **second}}


def after_round(previous: SearchSummary | None, latest: SearchSummary) -> SearchSummary:
    """The summary once `latest` ran: `latest` itself when it opens the session round, else both summed."""
    stalled = not latest.seeds or latest.children == 0
    if previous is None or previous.round != latest.round:
        return replace(latest, depth=1, stalled=stalled)
    return replace(
        latest,
        seeds=(*previous.seeds, *latest.seeds),
        calls=previous.calls + latest.calls,
        children=previous.children + latest.children,
        operators=_summed(previous.operators, latest.operators),
        degraded=previous.degraded + latest.degraded,
        skipped=previous.skipped + latest.skipped,
        failed=previous.failed + latest.failed,
        transforms=(*previous.transforms, *latest.transforms),
        ungrounded=previous.ungrounded + latest.ungrounded,
        hkg_paths=_summed(previous.hkg_paths, latest.hkg_paths),
        depth=previous.depth + 1,
        stalled=stalled,
        candidates=(*previous.candidates, *latest.candidates),
    )
