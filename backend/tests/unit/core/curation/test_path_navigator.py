"""The path navigator: budgets are never exceeded, relevant paths are followed, dead ends backtracked,
the stop rule ends the walk, and thin regions are reported."""

from __future__ import annotations

import random

from forge.core.curation.path_navigator import (
    Action,
    NavEdge,
    NavigationBudget,
    NavNode,
    StopReason,
    hypergraph_as_graph,
    knowledge_graph_as_graph,
    navigate,
)
from forge.core.domain_types import ClaimId, ClaimType, EdgeId, EdgeType, Phase
from forge.core.session.records import Claim, Edge
from forge.providers.token_counting import TiktokenCounter

COUNT = TiktokenCounter().count_tokens
QUERY = "emergency department queue waiting time triage"
WORDS = "queue waiting triage emergency nurses beds grid bees colony dance ships harbour time".split()


def _chain() -> tuple[list[NavNode], list[NavEdge]]:
    nodes = [
        NavNode("a", "emergency department queue"),
        NavNode("b", "triage nurses shorten the waiting time"),
        NavNode("c", "waiting time in the emergency department queue peaks at night"),
        NavNode("x", "honey bee colony foraging dance"),
        NavNode("y", "ships moored in a harbour"),
    ]
    edges = [
        NavEdge("a", "b", "supports"),
        NavEdge("b", "c", "extends"),
        NavEdge("a", "x", "mentions"),
        NavEdge("x", "y", "near"),
    ]
    return nodes, edges


def _graph(texts: dict[str, str], pairs: list[tuple[str, str]]) -> tuple[list[NavNode], list[NavEdge]]:
    return [NavNode(i, t) for i, t in texts.items()], [NavEdge(a, b, "r") for a, b in pairs]


def _random_graph(rng: random.Random) -> tuple[list[NavNode], list[NavEdge]]:
    nodes = [
        NavNode(f"n{i}", " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))))
        for i in range(rng.randint(1, 40))
    ]
    edges = [NavEdge(rng.choice(nodes).id, rng.choice(nodes).id, "r") for _ in range(rng.randint(0, 120))]
    return nodes, edges


class TestNavigate:
    def test_no_budget_is_ever_exceeded_over_many_random_graphs(self) -> None:
        for seed in range(200):
            rng = random.Random(seed)
            nodes, edges = _random_graph(rng)
            budget = NavigationBudget(
                max_steps=rng.randint(0, 15), max_edges=rng.randint(0, 40), max_tokens=rng.randint(0, 60)
            )
            nav = navigate(QUERY, nodes, edges, budget, COUNT)
            assert len(nav.steps) <= budget.max_steps, seed
            assert nav.edges_used <= budget.max_edges, seed
            assert nav.tokens_used == sum(COUNT(n.text) for n in nodes if n.id in nav.selected) <= budget.max_tokens
            assert len(set(nav.selected)) == len(nav.selected)

    def test_it_follows_the_relevant_chain_and_leaves_the_unrelated_branch(self) -> None:
        nodes, edges = _chain()
        nav = navigate(QUERY, nodes, edges, NavigationBudget(), COUNT)
        assert nav.selected[0] in {"a", "c"}
        assert set(nav.selected) == {"a", "b", "c"}
        assert nav.stop_reason == StopReason.STOP_RULE
        assert nav.steps[-1].action == Action.STOP

    def test_a_dead_end_is_backtracked_to_reach_another_relevant_branch(self) -> None:
        texts = {"hub": "emergency queue", "d": "triage waiting time", "e": "emergency department waiting"}
        nodes, edges = _graph(texts, [("hub", "d"), ("hub", "e")])
        nav = navigate(QUERY, nodes, edges, NavigationBudget(), COUNT, start="hub")
        actions = [s.action for s in nav.steps]
        assert Action.BACKTRACK in actions
        assert set(nav.selected) == {"hub", "d", "e"}

    def test_a_tight_token_budget_stops_the_walk_before_it_overflows(self) -> None:
        nodes, edges = _chain()
        first = COUNT("waiting time in the emergency department queue peaks at night")
        nav = navigate(QUERY, nodes, edges, NavigationBudget(max_tokens=first + 2), COUNT, start="c")
        assert nav.selected == ("c",)
        assert nav.stop_reason == StopReason.TOKEN_BUDGET

    def test_a_relevant_node_with_one_neighbour_is_a_thin_region(self) -> None:
        nodes, edges = _chain()
        nav = navigate(QUERY, nodes, edges, NavigationBudget(), COUNT)
        assert "c" in nav.thin and "b" not in nav.thin
        assert nav.states["b"].degree == 2

    def test_an_empty_graph_stops_at_once(self) -> None:
        assert navigate(QUERY, [], [], NavigationBudget(), COUNT).stop_reason == StopReason.EMPTY_GRAPH

    def test_an_unrelated_node_is_crossed_when_it_leads_to_a_relevant_one(self) -> None:
        texts = {"a": "emergency queue", "bridge": "honey bee colony", "z": "triage waiting time"}
        nodes, edges = _graph(texts, [("a", "bridge"), ("bridge", "z")])
        nav = navigate(QUERY, nodes, edges, NavigationBudget(), COUNT, start="a")
        assert nav.selected == ("a", "bridge", "z")


class TestGraphAdapters:
    def test_a_hyperedges_members_become_neighbours(self) -> None:
        nodes, edges = hypergraph_as_graph(
            [("q", "queue"), ("w", "waiting"), ("t", "triage")], [("causes", ["q", "w", "t", "q"])]
        )
        assert len(nodes) == 3
        assert {(e.source, e.target) for e in edges} == {("q", "w"), ("q", "t"), ("w", "t")}

    def test_claims_and_typed_edges_become_a_graph(self) -> None:
        one, two = ClaimId("00000000-0000-0000-0000-000000000001"), ClaimId("00000000-0000-0000-0000-000000000002")
        claims = [
            Claim(c, text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE) for c, text in ((one, "queue"), (two, "triage"))
        ]
        edge = Edge(EdgeId("00000000-0000-0000-0000-000000000003"), one, two, EdgeType.SUPPORTS)
        nodes, edges = knowledge_graph_as_graph(claims, [edge])
        assert [n.text for n in nodes] == ["queue", "triage"]
        assert edges == [NavEdge(str(one), str(two), "supports")]
