"""Listwise selection: must-keep always stays, the room is never exceeded, near-duplicates lose to a
distinct item, and the shaped-utility stop rule ends the selection."""

from __future__ import annotations

import random

from forge.core.curation.listwise_selection import Candidate, CurationBudget, Reason, select_listwise

QUERY = "emergency department queue waiting time triage nurses arrival rate"
WORDS = (
    "queue waiting time triage nurses arrival rate staff beds shift patients hospital doctors "
    "ambulance discharge capacity delay variance peak schedule electricity grid bees colony"
).split()


def _random_candidates(rng: random.Random) -> list[Candidate]:
    found = []
    for i in range(rng.randint(1, 25)):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        found.append(Candidate(f"c{i}", text, rng.randint(0, 900), must_keep=rng.random() < 0.2))
    return found


class TestSelectListwise:
    def test_must_keep_items_stay_even_when_they_alone_exceed_the_budget(self) -> None:
        items = [Candidate("brief", "triage queue", 5_000, must_keep=True), Candidate("old", "queue waiting", 10)]
        selection = select_listwise(QUERY, items, CurationBudget(context_tokens=1_000, carry_tokens=500))
        kept = {d.key: d for d in selection.decisions}
        assert kept["brief"].kept and kept["brief"].reason == Reason.MUST_KEEP
        assert not kept["old"].kept and kept["old"].reason == Reason.OVER_BUDGET
        assert selection.room == 0

    def test_selected_optional_tokens_never_exceed_the_room_over_many_random_pools(self) -> None:
        for seed in range(300):
            rng = random.Random(seed)
            items = _random_candidates(rng)
            budget = CurationBudget(context_tokens=rng.randint(0, 6_000), carry_tokens=rng.randint(0, 3_000))
            selection = select_listwise(QUERY, items, budget)
            optional = sum(
                c.tokens for c, d in zip(items, selection.decisions, strict=True) if d.reason == Reason.SELECTED
            )
            must = sum(c.tokens for c in items if c.must_keep)
            assert optional == selection.optional_tokens <= selection.room
            assert selection.room == max(0, min(budget.carry_tokens, budget.context_tokens - must))
            assert all(d.kept for c, d in zip(items, selection.decisions, strict=True) if c.must_keep), seed
            assert [d.key for d in selection.decisions] == [c.key for c in items]

    def test_two_near_duplicates_are_not_both_chosen_ahead_of_a_distinct_item_of_similar_relevance(self) -> None:
        items = [
            Candidate("dup-a", "emergency queue waiting time arrival rate measured hourly", 100),
            Candidate("dup-b", "emergency queue waiting time arrival rate measured each hour", 100),
            Candidate("distinct", "triage nurses in the emergency department cut waiting at peak arrival", 100),
        ]
        budget = CurationBudget(context_tokens=10_000, carry_tokens=200)  # room for two of the three
        selection = select_listwise(QUERY, items, budget)
        relevance = {d.key: d.relevance for d in selection.decisions}
        assert abs(relevance["distinct"] - relevance["dup-a"]) < 0.05  # similar relevance: redundancy decides
        kept = selection.kept_keys
        assert "distinct" in kept
        assert len(kept & {"dup-a", "dup-b"}) == 1

    def test_the_stop_rule_drops_every_item_whose_utility_does_not_pay_for_its_tokens(self) -> None:
        items = [Candidate("long", "queue waiting time triage", 4_000), Candidate("short", "queue triage nurses", 20)]
        budget = CurationBudget(context_tokens=100_000, carry_tokens=50_000, lambda_tokens=0.0002)
        selection = select_listwise(QUERY, items, budget)
        reasons = {d.key: d.reason for d in selection.decisions}
        assert reasons == {"long": Reason.STOP_RULE, "short": Reason.SELECTED}
        assert selection.stop_rule_triggered

    def test_an_item_about_something_else_is_not_chosen_even_with_room_to_spare(self) -> None:
        items = [Candidate("bees", "honey bee colony foraging dance", 30)]
        selection = select_listwise(QUERY, items, CurationBudget(context_tokens=10_000, carry_tokens=5_000))
        assert selection.kept_keys == frozenset()
        assert selection.decisions[0].relevance == 0.0
