"""The head of the hypothesis pool as the briefs offer it (issue 36 items 2–3): the strongest gated
BISO hypotheses for EXPLORE, and each suggested domain's best results for EXPLORE and SYNTHESIZE.

Invariants:
    - Pure: built from the hypotheses a stage just produced and kept in the state (the pool is its
      own table; a brief is built from the state alone).
    - Ranked by the gate (passed first), then by mapping score (highest first), then pool order;
      one per source domain first, so one fertile domain never fills the list, then the rest.
    - A candidate keeps its gate's result in words (`gate`: "passed", or "failed: <rules>"), so the
      agent reads the same verdict the pool holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.hypotheses.offered_hypothesis import OfferedHypothesis, offered_from
from forge.core.hypotheses.pool import Hypothesis

POOL_IN_BRIEF = 6  # BISO's head in EXPLORE's brief
PER_SUGGESTION = 2  # each suggested domain's best, in EXPLORE's and SYNTHESIZE's briefs


@dataclass(frozen=True, slots=True)
class PoolCandidate(OfferedHypothesis):
    """BISO's head, or a suggested domain's result: with the domain it came from and the rules it failed."""

    domain_id: str
    domain_name: str
    failed_rules: tuple[str, ...] = ()

    @property
    def gate(self) -> str:
        return "passed" if self.gate_passed else "failed: " + ", ".join(self.failed_rules)


def candidate_of(h: Hypothesis) -> PoolCandidate:
    failed = tuple(r.value for r in h.gate.failed_rules)
    return offered_from(h, PoolCandidate, domain_id=h.domain_id, domain_name=h.domain_name, failed_rules=failed)


def top_candidates(hypotheses: Sequence[Hypothesis], limit: int = POOL_IN_BRIEF) -> tuple[PoolCandidate, ...]:
    """The `limit` strongest, one per domain first (see the invariants)."""
    ranked = sorted((candidate_of(h) for h in hypotheses), key=lambda c: c.rank, reverse=True)  # stable
    firsts: dict[str, PoolCandidate] = {}
    for c in ranked:
        firsts.setdefault(c.domain_id, c)
    head = list(firsts.values())[:limit]
    taken = {c.id for c in head}
    rest = [c for c in ranked if c.id not in taken]
    return tuple(head + rest[: limit - len(head)])


def strongest(candidates: Sequence[PoolCandidate], count: int) -> list[PoolCandidate]:
    """The `count` best by gate then score (ties: the order given)."""
    return sorted(candidates, key=lambda c: c.rank, reverse=True)[:count]
