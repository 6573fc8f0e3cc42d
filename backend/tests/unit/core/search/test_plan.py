from forge.core.hypotheses.pool import HypothesisId
from forge.core.search.plan import (
    HEAVY_OPERATORS,
    PROFILES,
    OperatorApplication,
    RuntimeProfile,
    SearchOperator,
    SearchProfile,
    plan_search_round,
)

A, B, C = HypothesisId("a"), HypothesisId("b"), HypothesisId("c")
OP = SearchOperator


def profile(**changes: object) -> SearchProfile:
    base: dict[str, object] = {
        "name": RuntimeProfile.RESEARCH,
        "top_n": 3,
        "per_hypothesis": (OP.REFINE, OP.OPPOSE, OP.EXTREME),
        "combine_pairs": 2,
        "quotas": {},
        "max_calls": 50,
    }
    base.update(changes)
    return SearchProfile(**base)  # type: ignore[arg-type]


def test_applies_every_operator_per_seed_then_combines_consecutive_pairs() -> None:
    plan = plan_search_round([A, B], profile())
    assert [(a.operator, a.parents) for a in plan.applications] == [
        (OP.REFINE, (A,)),
        (OP.OPPOSE, (A,)),
        (OP.EXTREME, (A,)),
        (OP.REFINE, (B,)),
        (OP.OPPOSE, (B,)),
        (OP.EXTREME, (B,)),
        (OP.COMBINE, (A, B)),
    ]
    assert (plan.degraded, plan.skipped) == (0, 0)


def test_an_exhausted_quota_degrades_to_variant_then_refine() -> None:
    plan = plan_search_round([A, B, C], profile(quotas={OP.EXTREME: 1}))
    extremes = [a for a in plan.applications if a.degraded_from is OP.EXTREME]
    assert [a.operator for a in plan.applications if a.operator is OP.EXTREME] == [OP.EXTREME]
    assert extremes == [
        OperatorApplication(OP.VARIANT, (B,), OP.EXTREME),
        OperatorApplication(OP.VARIANT, (C,), OP.EXTREME),
    ]
    assert plan.degraded == 2


def test_degradation_skips_a_parent_that_already_had_variant_and_refine() -> None:
    plan = plan_search_round([A], profile(quotas={OP.OPPOSE: 0, OP.EXTREME: 0}, combine_pairs=0))
    # oppose degrades to variant; extreme finds variant and refine taken and is skipped.
    assert [(a.operator, a.degraded_from) for a in plan.applications] == [
        (OP.REFINE, None),
        (OP.VARIANT, OP.OPPOSE),
    ]
    assert (plan.degraded, plan.skipped) == (1, 1)


def test_a_degraded_combine_works_on_its_first_parent_only() -> None:
    plan = plan_search_round([A, B], profile(per_hypothesis=(), quotas={OP.COMBINE: 0}))
    assert plan.applications == (OperatorApplication(OP.VARIANT, (A,), OP.COMBINE),)


def test_max_calls_caps_the_round_and_counts_the_rest_as_skipped() -> None:
    plan = plan_search_round([A, B, C], profile(max_calls=4))
    assert len(plan.applications) == 4
    assert plan.skipped == 3 * 3 + 2 - 4


def test_call_argument_quotas_override_the_profiles() -> None:
    research = PROFILES[RuntimeProfile.RESEARCH]
    plan = plan_search_round([A, B], research, quotas={OP.COMBINE: 0})
    assert OP.COMBINE not in {a.operator for a in plan.applications}


def test_interactive_runs_fewer_calls_than_research_on_the_same_seeds() -> None:
    seeds = [HypothesisId(f"h{i}") for i in range(6)]
    interactive = plan_search_round(
        seeds[: PROFILES[RuntimeProfile.INTERACTIVE].top_n], PROFILES[RuntimeProfile.INTERACTIVE]
    )
    research = plan_search_round(seeds, PROFILES[RuntimeProfile.RESEARCH])
    assert len(interactive.applications) <= PROFILES[RuntimeProfile.INTERACTIVE].max_calls
    assert len(interactive.applications) < len(research.applications)


def test_the_plan_is_deterministic() -> None:
    assert plan_search_round([A, B, C], profile(quotas={OP.OPPOSE: 1})) == plan_search_round(
        [A, B, C], profile(quotas={OP.OPPOSE: 1})
    )


DOMAINS = {A: "ecology", B: "queueing", C: "ecology"}


def test_hyperbridge_pairs_each_seed_with_the_farthest_seed_of_another_domain() -> None:
    plan = plan_search_round([A, B, C], profile(per_hypothesis=(OP.HYPERBRIDGE,), combine_pairs=0), domain_of=DOMAINS)
    assert [a.parents for a in plan.applications if a.operator is OP.HYPERBRIDGE] == [(A, B), (B, A), (C, B)]


def test_a_seed_without_a_partner_from_another_domain_degrades_its_hyperbridge() -> None:
    plan = plan_search_round(
        [A, C], profile(per_hypothesis=(OP.HYPERBRIDGE,), combine_pairs=0), domain_of={A: "x", C: "x"}
    )
    assert [(a.operator, a.parents, a.degraded_from) for a in plan.applications] == [
        (OP.VARIANT, (A,), OP.HYPERBRIDGE),
        (OP.VARIANT, (C,), OP.HYPERBRIDGE),
    ]


def test_blends_pair_seeds_of_different_domains_and_transforms_take_the_best_seeds() -> None:
    plan = plan_search_round(
        [A, B, C], profile(per_hypothesis=(), combine_pairs=0, blend_pairs=5, transforms=2), domain_of=DOMAINS
    )
    assert [(a.operator, a.parents) for a in plan.applications] == [
        (OP.BLEND_EXPAND, (A, B)),
        (OP.BLEND_EXPAND, (B, C)),
        (OP.TRANSFORM_SPACE, (A,)),
        (OP.TRANSFORM_SPACE, (B,)),
    ]


def test_exhausted_heavy_quotas_degrade_to_variant_then_refine() -> None:
    quotas = {OP.BLEND_EXPAND: 1, OP.TRANSFORM_SPACE: 0}
    plan = plan_search_round(
        [A, B, C],
        profile(per_hypothesis=(), combine_pairs=0, blend_pairs=2, transforms=2, quotas=quotas),
        domain_of=DOMAINS,
    )
    assert [(a.operator, a.parents, a.degraded_from) for a in plan.applications] == [
        (OP.BLEND_EXPAND, (A, B), None),
        (OP.VARIANT, (B,), OP.BLEND_EXPAND),
        (OP.VARIANT, (A,), OP.TRANSFORM_SPACE),
        (OP.REFINE, (B,), OP.TRANSFORM_SPACE),
    ]


def test_the_interactive_profile_never_runs_a_heavy_operator_whatever_the_quotas() -> None:
    interactive = PROFILES[RuntimeProfile.INTERACTIVE]
    asked = SearchProfile(
        RuntimeProfile.INTERACTIVE, 3, (OP.REFINE, OP.HYPERBRIDGE), 0, {}, 20, blend_pairs=2, transforms=2
    )
    plan = plan_search_round([A, B, C], asked, quotas=dict.fromkeys(HEAVY_OPERATORS, 9), domain_of=DOMAINS)
    assert not {a.operator for a in plan.applications} & HEAVY_OPERATORS
    assert plan.degraded > 0
    default = plan_search_round([A, B, C], interactive, domain_of=DOMAINS)
    assert OP.HYPERPATH_EXPAND in {a.operator for a in default.applications}
    assert not {a.operator for a in default.applications} & HEAVY_OPERATORS


def test_the_research_profile_plans_every_operator_and_degrades_the_heavy_ones_past_their_quotas() -> None:
    seeds = [HypothesisId(f"h{i}") for i in range(6)]
    plan = plan_search_round(seeds, PROFILES[RuntimeProfile.RESEARCH], domain_of={s: s for s in seeds})
    planned = {a.operator for a in plan.applications}
    assert planned == set(SearchOperator)
    degraded_from = {a.degraded_from for a in plan.applications if a.degraded_from}
    assert {OP.HYPERBRIDGE, OP.BLEND_EXPAND, OP.TRANSFORM_SPACE} <= degraded_from
    assert len(plan.applications) <= PROFILES[RuntimeProfile.RESEARCH].max_calls
