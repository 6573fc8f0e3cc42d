"""SEARCH's children as SYNTHESIZE reads them: candidate theses and antitheses, each with its
operator, its parents and its lineage back to the BISO hypothesis it descends from.

Invariants:
    - Pure: built from the round's children and the pool they were read from, when the SEARCH stage
      runs, and kept in `SearchSummary.candidates` (the brief is built from the state alone).
    - At most `limit` per SEARCH round, children that passed the mapping gate first, then taken in
      turn from each operator (so one operator's output never fills the list), in pool order.
    - `lineage` lists the ancestors from the root down to the direct parent as "operator: title";
      a parent missing from the pool ends the walk (never an error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from forge.core.hypotheses.offered_hypothesis import OfferedHypothesis, offered_from
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId

CANDIDATES_PER_ROUND = 6
MAX_LINEAGE = 4


@dataclass(frozen=True, slots=True)
class SearchCandidate(OfferedHypothesis):
    operator: str
    parents: tuple[HypothesisId, ...]
    lineage: tuple[str, ...]  # root first: "operator: title" of each ancestor
    hyperpath: str = ""  # the HKG chain a hyperpath/hyperbridge child followed, in words


def _lineage(child: Hypothesis, by_id: Mapping[HypothesisId, Hypothesis]) -> tuple[str, ...]:
    chain: list[str] = []
    current = child
    while current.parents and len(chain) < MAX_LINEAGE:
        parent = by_id.get(current.parents[0])
        if parent is None:
            break
        chain.append(f"{parent.operator}: {parent.title}")
        current = parent
    return tuple(reversed(chain))


def _hyperpath(h: Hypothesis) -> str:
    if h.hyperpath is None or not h.hyperpath.chain:
        return ""
    return " -> ".join(f"{link.step} [{link.hyperedge_id}]" for link in h.hyperpath.chain)


def _in_turn(children: Sequence[Hypothesis], limit: int) -> list[Hypothesis]:
    """Gate-passed first, then one per operator in turn, `limit` at most."""
    ordered = sorted(children, key=lambda h: h.gate.status is not GateStatus.PASSED)
    queues: dict[str, list[Hypothesis]] = {}
    for h in ordered:
        queues.setdefault(h.operator, []).append(h)
    taken: list[Hypothesis] = []
    while len(taken) < limit and any(queues.values()):
        for queue in queues.values():
            if queue and len(taken) < limit:
                taken.append(queue.pop(0))
    return taken


def search_candidates(
    children: Sequence[Hypothesis], pool: Sequence[Hypothesis], limit: int = CANDIDATES_PER_ROUND
) -> tuple[SearchCandidate, ...]:
    by_id = {h.id: h for h in (*pool, *children)}
    return tuple(
        offered_from(
            h,
            SearchCandidate,
            operator=h.operator,
            parents=h.parents,
            lineage=_lineage(h, by_id),
            hyperpath=_hyperpath(h),
        )
        for h in _in_turn(children, limit)
    )
