"""What the path navigator finds: thin regions become curiosity items (session graph and HKG), deep dives
bring the neighbours a walk selects, and both walks stay within the navigation budget."""

from __future__ import annotations

import random
from dataclasses import replace
from uuid import UUID

from forge.core.curation.graph_gaps import HkgNeighbourhood, deep_dive_neighbours, find_curiosity
from forge.core.curation.path_navigator import NavigationBudget, StopReason
from forge.core.domain_types import ClaimId, ClaimType, EdgeId, EdgeType, Phase
from forge.core.session.records import Claim, Edge
from forge.providers.token_counting import TiktokenCounter

COUNT = TiktokenCounter().count_tokens
QUERY = "emergency department queue waiting time triage"
WORDS = "queue waiting triage emergency nurses beds grid bees colony dance ships harbour time".split()


def _claim(n: int, text: str) -> Claim:
    return Claim(ClaimId(UUID(int=n)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)


def _edge(n: int, a: Claim, b: Claim, kind: EdgeType = EdgeType.SUPPORTS) -> Edge:
    return Edge(EdgeId(UUID(int=100 + n)), a.id, b.id, kind)


HUB = _claim(1, "emergency department queue waiting time")
SPOKE_A = _claim(2, "triage nurses shorten the emergency queue")
SPOKE_B = _claim(3, "waiting time in the emergency department peaks at night")
LONELY = _claim(4, "triage by acuity score in the emergency department queue")
UNRELATED = _claim(5, "honey bee colony foraging dance")


class TestFindCuriosity:
    def test_a_relevant_claim_with_one_link_is_offered_and_well_linked_or_unrelated_ones_are_not(self) -> None:
        claims = [HUB, SPOKE_A, SPOKE_B, LONELY, UNRELATED]
        edges = [_edge(1, SPOKE_A, HUB), _edge(2, SPOKE_B, HUB), _edge(3, SPOKE_A, SPOKE_B), _edge(4, LONELY, HUB)]
        scan = find_curiosity(QUERY, claims, edges, NavigationBudget(), COUNT)
        assert [i.id for i in scan.items] == [f"kg:{LONELY.id}"]
        item = scan.items[0]
        assert item.source == "session_graph" and item.neighbours == 1 and item.node_text == LONELY.text
        assert "connects to only 1 other node" in item.question
        assert scan.hkg_walk is None

    def test_the_same_graph_gives_the_same_ids(self) -> None:
        claims, edges = [HUB, LONELY], [_edge(4, LONELY, HUB)]
        first = find_curiosity(QUERY, claims, edges, NavigationBudget(), COUNT)
        assert first == find_curiosity(QUERY, claims, edges, NavigationBudget(), COUNT)

    def test_in_the_hkg_only_a_seed_can_be_thin_not_a_node_at_the_rim(self) -> None:
        hkg = HkgNeighbourhood(
            nodes=(("t:queue", "emergency queue"), ("t:wait", "waiting time triage")),
            hyperedges=(("rel", ("t:queue", "t:wait")),),
            seeds=("t:queue",),
        )
        scan = find_curiosity(QUERY, [], [], NavigationBudget(), COUNT, hkg)
        assert scan.hkg_walk is not None and set(scan.hkg_walk.selected) == {"t:queue", "t:wait"}
        assert [i.id for i in scan.items] == ["hkg:t:queue"]
        assert "knowledge hypergraph" in scan.items[0].question

    def test_an_empty_graph_offers_nothing(self) -> None:
        scan = find_curiosity(QUERY, [], [], NavigationBudget(), COUNT)
        assert scan.items == () and scan.session_walk.stop_reason == StopReason.EMPTY_GRAPH

    def test_both_walks_stay_within_every_budget_over_many_random_graphs(self) -> None:
        for seed in range(120):
            rng = random.Random(seed)
            claims = [
                _claim(i + 1, " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))))
                for i in range(rng.randint(1, 25))
            ]
            edges = [_edge(i, rng.choice(claims), rng.choice(claims)) for i in range(rng.randint(0, 60))]
            hkg = HkgNeighbourhood(
                tuple((f"h{i}", c.text) for i, c in enumerate(claims)),
                tuple(("r", (f"h{rng.randrange(len(claims))}", f"h{rng.randrange(len(claims))}")) for _ in range(30)),
                ("h0",),
            )
            budget = NavigationBudget(
                max_steps=rng.randint(1, 12), max_edges=rng.randint(1, 30), max_tokens=rng.randint(1, 50)
            )
            scan = find_curiosity(QUERY, claims, edges, budget, COUNT, hkg)
            for walk in (scan.session_walk, scan.hkg_walk):
                assert walk is not None
                assert len(walk.steps) <= budget.max_steps and walk.edges_used <= budget.max_edges, seed
                assert walk.tokens_used <= budget.max_tokens, seed
            assert len(scan.items) <= 5


class TestDeepDive:
    def test_the_walk_from_the_target_brings_the_related_neighbour_with_its_relation(self) -> None:
        claims = [HUB, SPOKE_B, UNRELATED]
        edges = [_edge(1, SPOKE_B, HUB, EdgeType.EXTENDS), _edge(2, UNRELATED, HUB)]
        neighbours, walk = deep_dive_neighbours(HUB, claims, edges, NavigationBudget(), COUNT)
        assert [(n.claim.id, n.relation) for n in neighbours] == [(SPOKE_B.id, "extends")]
        assert walk.selected[0] == str(HUB.id) and walk.stop_reason == StopReason.STOP_RULE

    def test_a_token_budget_only_the_target_fits_brings_no_neighbour(self) -> None:
        claims = [HUB, SPOKE_B]
        budget = replace(NavigationBudget(), max_tokens=COUNT(HUB.text))
        neighbours, walk = deep_dive_neighbours(HUB, claims, [_edge(1, SPOKE_B, HUB)], budget, COUNT)
        assert neighbours == () and walk.stop_reason == StopReason.TOKEN_BUDGET
        assert walk.tokens_used <= budget.max_tokens
