"""The source-domain selector: Stage-B filter, diversity-greedy choice, count bounds."""

from __future__ import annotations

from support.knowledge_examples import make_domain

from forge.core.explore.library_records import ScienceField, SourceDomain
from forge.core.explore.select_source_domains import (
    DomainSelection,
    Feasibility,
    FeasibilityVerdict,
    SelectionPolicy,
    estimate_feasibility,
    select_source_domains,
)
from forge.core.explore.source_domain_distance import DomainProximity

FIELDS = list(ScienceField)


def _proximity(domain_id: str, relevance: float = 0.5, distance: float = 0.8) -> DomainProximity:
    return DomainProximity(domain_id, relevance, distance, (), ())


def _unlike(a: SourceDomain, b: SourceDomain) -> float:
    return 1.0 if a.id == b.id else 0.0


def _select(domains: list[SourceDomain], **kwargs) -> DomainSelection:  # type: ignore[no-untyped-def]
    proximities = kwargs.pop("proximities", {d.id: _proximity(d.id) for d in domains})
    verdicts = kwargs.pop("verdicts", {})
    similarity = kwargs.pop("similarity", _unlike)
    return select_source_domains(domains, proximities, verdicts, similarity, **kwargs)


def _many(count: int) -> list[SourceDomain]:
    return [make_domain(f"d{i:02d}", field=FIELDS[i % len(FIELDS)]) for i in range(count)]


def test_chooses_at_least_eighteen_and_at_most_thirty() -> None:
    domains = _many(40)
    chosen = _select(domains).chosen
    assert len(chosen) == 30  # every gain is high, so it stops at the ceiling
    weak = {d.id: _proximity(d.id, relevance=0.0, distance=0.1) for d in domains}
    low = _select(domains, proximities=weak)
    assert len(low.chosen) == 18  # gains below min_gain: stops at the floor
    assert low.shortfall is None


def test_infeasible_domains_are_filtered_out_and_reported() -> None:
    domains = _many(25)
    verdicts = {d.id: FeasibilityVerdict(d.id, Feasibility.INFEASIBLE, "no structure maps") for d in domains[:3]}
    selection = _select(domains, verdicts=verdicts)
    chosen_ids = {c.domain_id for c in selection.chosen}
    assert not chosen_ids & {d.id for d in domains[:3]}
    assert [v.domain_id for v in selection.filtered_out] == ["d00", "d01", "d02"]
    assert len(selection.chosen) == 22


def test_too_few_feasible_domains_is_a_stated_shortfall() -> None:
    selection = _select(_many(10))
    assert len(selection.chosen) == 10
    assert selection.shortfall is not None and "only 10" in selection.shortfall


def test_a_restriction_by_the_person_may_give_fewer_without_a_shortfall() -> None:
    domains = _many(40)
    selection = _select(domains, restricted_to=["d03", "d07", "d11"])
    assert {c.domain_id for c in selection.chosen} == {"d03", "d07", "d11"}
    assert selection.shortfall is None


def test_diversity_prefers_a_different_domain_over_a_near_twin() -> None:
    twin_a = make_domain("twin_a", field=ScienceField.PHYSICAL)
    twin_b = make_domain("twin_b", field=ScienceField.PHYSICAL)
    other = make_domain("other", field=ScienceField.SOCIAL)
    proximities = {
        "twin_a": _proximity("twin_a", 0.9),
        "twin_b": _proximity("twin_b", 0.85),
        "other": _proximity("other", 0.6),
    }

    def similarity(a: SourceDomain, b: SourceDomain) -> float:
        return 1.0 if a.field == b.field else 0.0

    policy = SelectionPolicy(min_count=2, max_count=2)
    selection = _select([twin_a, twin_b, other], proximities=proximities, similarity=similarity, policy=policy)
    assert [c.domain_id for c in selection.chosen] == ["twin_a", "other"]


def test_suggested_domains_come_first_whatever_their_score() -> None:
    domains = _many(20)
    proximities = {d.id: _proximity(d.id) for d in domains}
    proximities["d19"] = _proximity("d19", relevance=0.0, distance=0.0)
    selection = _select(domains, proximities=proximities, suggested=["d19"])
    assert selection.chosen[0].domain_id == "d19"
    assert selection.chosen[0].suggested and selection.chosen[0].reason == "suggested by you"


def test_without_a_model_only_near_domains_are_judged_infeasible() -> None:
    assert estimate_feasibility(_proximity("x", distance=0.2)).feasibility is Feasibility.INFEASIBLE
    assert estimate_feasibility(_proximity("x", distance=0.8)).feasibility is Feasibility.UNASSESSED


def test_policy_rejects_inverted_bounds() -> None:
    try:
        SelectionPolicy(min_count=31, max_count=30)
    except ValueError as error:
        assert "min_count" in str(error)
    else:
        raise AssertionError("inverted bounds accepted")


def _greedy_reference(
    domains: list[SourceDomain],
    proximities: dict[str, DomainProximity],
    similarity,
    policy: SelectionPolicy,  # type: ignore[no-untyped-def]
) -> list[tuple[str, float]]:
    """The module docstring's greedy, comparing each candidate with every chosen domain each round."""
    chosen: list[SourceDomain] = []
    gains: list[float] = []
    remaining = sorted(domains, key=lambda d: d.id)
    while remaining and len(chosen) < policy.max_count:

        def gain(d: SourceDomain) -> float:
            p = proximities[d.id]
            overlap = max((similarity(d, c) for c in chosen), default=0.0)
            return (
                policy.relevance_weight * p.relevance
                + policy.distance_weight * p.distance
                - policy.diversity_weight * overlap
            )

        best = max(remaining, key=gain)
        if len(chosen) >= policy.min_count and gain(best) < policy.min_gain:
            break
        gains.append(gain(best))
        chosen.append(best)
        remaining.remove(best)
    return [(d.id, round(g, 6)) for d, g in zip(chosen, gains, strict=True)]


def test_the_greedy_choice_is_the_documented_one_on_random_libraries() -> None:
    import random

    for seed in range(40):
        rng = random.Random(seed)
        domains = _many(rng.randint(5, 45))
        proximities = {d.id: _proximity(d.id, rng.random(), rng.random()) for d in domains}
        pairs = {(a.id, b.id): rng.choice([0.0, 0.2, 0.5, 0.9, rng.random()]) for a in domains for b in domains}

        def similarity(a: SourceDomain, b: SourceDomain, pairs: dict[tuple[str, str], float] = pairs) -> float:
            return pairs[min(a.id, b.id), max(a.id, b.id)]

        policy = SelectionPolicy(min_count=rng.randint(1, 8), max_count=rng.randint(8, 20), min_gain=rng.random() / 2)
        chosen = _select(domains, proximities=proximities, similarity=similarity, policy=policy).chosen
        assert [(c.domain_id, c.gain) for c in chosen] == _greedy_reference(domains, proximities, similarity, policy), (
            seed
        )
