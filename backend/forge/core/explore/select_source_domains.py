"""SourceDomainSelector (seed 000 §7 stage 3): a Stage-B feasibility filter, then diversity-greedy choice.

Steps:
    1. Stage B: drop every candidate whose `FeasibilityVerdict` is INFEASIBLE (a model judges the
       mapping potential of the `shortlist_domains` in one call, engine/explore/judge_domain_feasibility.py;
       without one, `estimate_feasibility` only rules out domains near the problem's own field, which
       are not distant sources).
    2. The person's suggested domains come first, whatever their score.
    3. Greedy: repeatedly take the candidate with the best marginal gain
           gain = w_rel·relevance + w_dist·distance − w_div·max similarity to the domains already chosen
       while fewer than `max_count` are chosen, and — once `min_count` are chosen — only while the
       gain stays at or above `min_gain`.

Invariants:
    - Deterministic: ties break on the domain id.
    - The result holds between `min_count` and `max_count` domains unless the person restricted the
      candidates or too few passed Stage B; then `shortfall` says why in words.
    - Every chosen domain carries its scores and a one-line reason; every filtered one its verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.domain_types import SemanticDistance
from forge.core.explore.library_records import SourceDomain
from forge.core.explore.source_domain_distance import (
    DomainProximity,
    distance_band,
    domain_similarity,
    measure_proximity,
)


class Feasibility(str, Enum):
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNASSESSED = "unassessed"


@dataclass(frozen=True, slots=True)
class FeasibilityVerdict:
    domain_id: str
    feasibility: Feasibility
    reason: str


@dataclass(frozen=True, slots=True)
class SelectionPolicy:
    min_count: int = 18
    max_count: int = 30
    relevance_weight: float = 0.45
    distance_weight: float = 0.35
    diversity_weight: float = 0.4
    min_gain: float = 0.05

    def __post_init__(self) -> None:
        if not 1 <= self.min_count <= self.max_count:
            raise ValueError(f"need 1 <= min_count <= max_count, got {self.min_count}..{self.max_count}")


@dataclass(frozen=True, slots=True)
class SelectedDomain:
    domain_id: str
    name: str
    relevance: float
    distance: float
    band: SemanticDistance
    gain: float
    suggested: bool
    reason: str


@dataclass(frozen=True, slots=True)
class DomainSelection:
    chosen: tuple[SelectedDomain, ...]
    filtered_out: tuple[FeasibilityVerdict, ...]
    shortfall: str | None


Similarity = Callable[[SourceDomain, SourceDomain], float]


def estimate_feasibility(proximity: DomainProximity) -> FeasibilityVerdict:
    """Without a model's judgement: only a domain near the problem's own field is ruled out (not distant)."""
    if proximity.band is SemanticDistance.NEAR:
        return FeasibilityVerdict(
            proximity.domain_id,
            Feasibility.INFEASIBLE,
            "too close to the problem's own field to be a distant source; nothing new to map across",
        )
    return FeasibilityVerdict(proximity.domain_id, Feasibility.UNASSESSED, "not judged; kept")


def _reason(proximity: DomainProximity, suggested: bool) -> str:
    if suggested:
        return "suggested by you"
    hits = proximity.cue_hits + proximity.structure_hits
    fit = f"its structures speak to {', '.join(hits[:4])}" if hits else "no shared words: a purely structural bet"
    return f"{proximity.band.value} from the problem; {fit}"


def _gain(proximity: DomainProximity, overlap: float, policy: SelectionPolicy) -> float:
    """`overlap`: the domain's largest similarity to a domain already chosen (0 before any)."""
    return (
        policy.relevance_weight * proximity.relevance
        + policy.distance_weight * proximity.distance
        - policy.diversity_weight * overlap
    )


def _selected(domain: SourceDomain, proximity: DomainProximity, gain: float, suggested: bool) -> SelectedDomain:
    return SelectedDomain(
        domain.id,
        domain.name,
        proximity.relevance,
        proximity.distance,
        distance_band(proximity.distance),
        round(gain, 6),
        suggested,
        _reason(proximity, suggested),
    )


def _shortfall(count: int, pool: int, restricted: bool, policy: SelectionPolicy) -> str | None:
    if count >= policy.min_count or restricted:
        return None
    return f"only {pool} domains passed the feasibility filter; {policy.min_count} were wanted"


def select_source_domains(
    domains: Sequence[SourceDomain],
    proximities: Mapping[str, DomainProximity],
    verdicts: Mapping[str, FeasibilityVerdict],
    similarity: Similarity,
    *,
    policy: SelectionPolicy = SelectionPolicy(),
    suggested: Sequence[str] = (),
    restricted_to: Sequence[str] | None = None,
) -> DomainSelection:
    allowed = set(restricted_to) if restricted_to is not None else {d.id for d in domains}
    filtered = tuple(
        verdicts[d.id] for d in domains if d.id in verdicts and verdicts[d.id].feasibility is Feasibility.INFEASIBLE
    )
    dropped = {v.domain_id for v in filtered}
    pool = sorted((d for d in domains if d.id in allowed and d.id not in dropped), key=lambda d: d.id)
    wanted = set(suggested)
    chosen_domains = [d for d in pool if d.id in wanted][: policy.max_count]
    chosen = [_selected(d, proximities[d.id], 0.0, True) for d in chosen_domains]
    remaining = [d for d in pool if d.id not in wanted]
    # Each candidate's largest similarity to the chosen, kept up to date as one more is chosen: the
    # same maximum as comparing with every chosen domain at every round, with n similarities a round.
    overlap = {id(d): max((similarity(d, c) for c in chosen_domains), default=0.0) for d in remaining}
    while remaining and len(chosen) < policy.max_count:
        scored = [(_gain(proximities[d.id], overlap[id(d)], policy), d) for d in remaining]
        gain, best = max(scored, key=lambda gd: gd[0])  # the first (smallest id) on a tie
        if len(chosen) >= policy.min_count and gain < policy.min_gain:
            break
        chosen.append(_selected(best, proximities[best.id], gain, False))
        chosen_domains.append(best)
        remaining.remove(best)
        for d in remaining:
            overlap[id(d)] = max(overlap[id(d)], similarity(d, best))
    return DomainSelection(
        tuple(chosen), filtered, _shortfall(len(chosen), len(pool), restricted_to is not None, policy)
    )


def shortlist_domains(
    problem_text: str, domains: Sequence[SourceDomain], size: int, *, policy: SelectionPolicy = SelectionPolicy()
) -> list[SourceDomain]:
    """The `size` domains a feasibility judge reads before the diversity pick: the best standalone
    gain (relevance and distance, nothing chosen yet), domains near the problem's own field left out
    (Stage B drops them whatever a judge says); ties break on the id."""
    proximities = {d.id: measure_proximity(problem_text, d) for d in domains}
    distant = [d for d in domains if proximities[d.id].band is not SemanticDistance.NEAR]
    ranked = sorted(distant, key=lambda d: (-_gain(proximities[d.id], 0.0, policy), d.id))
    return ranked[:size]


def select_for_problem(
    problem_text: str,
    domains: Sequence[SourceDomain],
    *,
    verdicts: Mapping[str, FeasibilityVerdict] | None = None,
    policy: SelectionPolicy = SelectionPolicy(),
    suggested: Sequence[str] = (),
    restricted_to: Sequence[str] | None = None,
) -> DomainSelection:
    """The whole stage from the problem's text: proximities, verdicts (given, else estimated), selection.

    Domain vectors are the deterministic hashed ones, computed once per call."""
    given = verdicts or {}
    proximities = {d.id: measure_proximity(problem_text, d) for d in domains}
    judged = {i: given.get(i) or estimate_feasibility(p) for i, p in proximities.items()}
    return select_source_domains(
        domains, proximities, judged, domain_similarity, policy=policy, suggested=suggested, restricted_to=restricted_to
    )
