"""What EXPLORE and SYNTHESIZE are offered of the hypothesis pool (issue 36 items 2–3), and the
pool-wide ranking the autopilot stars from.

Invariants:
    - EXPLORE is offered BISO's head of this round and the best results on the domains the person
      suggested (explored this round); SYNTHESIZE is offered those results as candidates too. An
      analogy or a thesis may cite only an id its brief offered.
    - A suggestion whose domain was already explored by this round's BISO has no results of its own:
      it is offered that domain's hypotheses in BISO's head.
    - `stars_by_score` ranks the whole offer — pool hypotheses and the agent's gated analogies — by
      the gate (passed first), then the mapping score; an analogy that cites a pool hypothesis stands
      for it (the agent's researched version is starred, not a copy of the pool's).
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.explore.suggested_domains import SuggestionOutcome
from forge.core.hypotheses.pool_candidates import PER_SUGGESTION, PoolCandidate
from forge.core.session.forge_state import ForgeState


def biso_head(state: ForgeState) -> list[PoolCandidate]:
    """BISO's head of this round (none before this round's BISO ran)."""
    fresh = state.biso is not None and state.biso.round == state.current_round
    return list(state.pool_candidates) if fresh else []


def suggestion_candidates(outcome: SuggestionOutcome, head: list[PoolCandidate]) -> tuple[PoolCandidate, ...]:
    if outcome.candidates or not outcome.domain_id:
        return outcome.candidates
    return tuple(c for c in head if c.domain_id == outcome.domain_id)[:PER_SUGGESTION]


def this_rounds_suggestions(state: ForgeState) -> list[SuggestionOutcome]:
    return [o for o in state.suggestion_outcomes if o.round == state.current_round]


def suggested_offer(state: ForgeState) -> list[PoolCandidate]:
    head = biso_head(state)
    return [c for o in this_rounds_suggestions(state) for c in suggestion_candidates(o, head)]


def explore_offer(state: ForgeState) -> list[PoolCandidate]:
    """BISO's head, then the suggested domains' results (each id once)."""
    return list({c.id: c for c in [*biso_head(state), *suggested_offer(state)]}.values())


@dataclass(frozen=True, slots=True)
class Stars:
    analogies: tuple[int, ...]  # indices of the agent's analogies
    hypotheses: tuple[str, ...]  # pool ids no analogy cites


def stars_by_score(state: ForgeState, count: int) -> Stars:
    """The `count` strongest of the pool offer and the agent's scored analogies (see the invariants)."""
    pool = {c.id: c for c in explore_offer(state)}
    cited = {a.hypothesis_id: i for i, a in enumerate(state.cross_domain_analogies) if a.hypothesis_id}
    ranked: list[tuple[tuple[bool, float], int | str]] = [(c.rank, cited.get(c.id, c.id)) for c in pool.values()]
    ranked += [
        ((True, a.mapping_score), i)
        for i, a in enumerate(state.cross_domain_analogies)
        if a.mapping_score is not None and a.hypothesis_id not in pool
    ]
    chosen = [item for _, item in sorted(ranked, key=lambda r: r[0], reverse=True)[:count]]
    return Stars(
        tuple(sorted({i for i in chosen if isinstance(i, int)})), tuple(i for i in chosen if isinstance(i, str))
    )
