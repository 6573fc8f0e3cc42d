"""Phase 5 (BUILD) tools: the knowledge graph, gaps and negative knowledge.

Invariants:
    - Only claims the person accepted, qualified or merged enter the graph; edges keep it a DAG.
    - get_negative_knowledge sets the flag rule 10 reads; it is offered in SYNTHESIZE too, because
      rounds 2+ must consult it before their first synthesis.
    - analyze_gaps records the model's gaps, then lets the path navigator (seed 002) walk the graph
      and the HKG around the problem (read → pure walk → write into the state): the thin regions it
      finds replace the round's curiosity items, offered at the build review as next-round directions.
"""

from __future__ import annotations

from uuid import UUID

from pydantic import BaseModel, Field

from forge.agent.phases.reviewer_decisions import verdict_word
from forge.agent.tool_context import NoInput, ToolContext, ToolOutcome, ToolSpec
from forge.core.curation.graph_gaps import CuriosityItem, find_curiosity, navigation_view
from forge.core.domain_types import ClaimId, ClaimStatus, EdgeId, EdgeType
from forge.core.graph.knowledge_graph import check_edge_allowed
from forge.core.rules.claim_rules import check_claim_index
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import Edge

GRAPH_STATUSES = (ClaimStatus.VALIDATED, ClaimStatus.QUALIFIED, ClaimStatus.SUPERSEDED)


class EdgeItem(BaseModel):
    to_claim_id: str = Field(description="Id of a claim already in the graph (from graph_claims in the brief).")
    edge_type: EdgeType = Field(
        description="Read as 'this claim <edge_type> that claim': supports = gives evidence for it; contradicts = "
        "is incompatible with it; extends = widens or deepens it; supersedes = replaces it (it is outdated); "
        "depends_on = holds only if it holds; merged_from = was merged from it."
    )


class AddToGraphInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description="Index of the claim in this round, as in the brief's claims.")
    edges: list[EdgeItem] = Field(
        default_factory=list,
        max_length=8,
        description="Edges from this claim to claims already in the graph; the graph must stay acyclic.",
    )


class GapsInput(BaseModel):
    gaps: list[str] = Field(
        min_length=1,
        max_length=12,
        description="Questions the graph cannot answer yet, each specific enough to research next.",
    )
    convergence_locks: list[str] = Field(
        default_factory=list,
        max_length=6,
        description="Places where every claim leans on the same assumption or source, so the graph may be stuck.",
    )


def _edge_violation(ctx: ToolContext, source: ClaimId, item: EdgeItem) -> RuleViolation | Edge:
    try:
        target = ClaimId(UUID(item.to_claim_id))
    except ValueError:
        return RuleViolation(ErrorCode.INVALID_INPUT, f"to_claim_id '{item.to_claim_id}' is not a claim id.")
    nodes = [c.id for c in ctx.state.knowledge_graph_nodes]
    violation = check_edge_allowed(nodes, ctx.state.knowledge_graph_edges, source, target, item.edge_type)
    return violation or Edge(EdgeId(ctx.new_id()), source, target, item.edge_type)


async def add_to_knowledge_graph(ctx: ToolContext, args: AddToGraphInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    if claim.status not in GRAPH_STATUSES:
        return ToolOutcome.failed(
            RuleViolation(
                ErrorCode.INVALID_INPUT,
                f"Claim {args.claim_index} is {claim.status.value}; only accepted, qualified "
                "or merged claims enter the graph (rejected ones are negative knowledge).",
            )
        )
    already = s.graph_node(claim.id) is not None
    if not already:
        s.knowledge_graph_nodes.append(claim)
    added: list[Edge] = []
    for item in args.edges:
        outcome = _edge_violation(ctx, claim.id, item)
        if isinstance(outcome, RuleViolation):
            if not already:
                s.knowledge_graph_nodes.pop()
            s.knowledge_graph_edges = [e for e in s.knowledge_graph_edges if e not in added]
            return ToolOutcome.failed(outcome)
        s.knowledge_graph_edges.append(outcome)
        added.append(outcome)
    return ToolOutcome(
        {"claim_id": str(claim.id), "nodes": len(s.knowledge_graph_nodes), "edges_added": len(added)},
        f"claim {args.claim_index} in graph with {len(added)} edge(s)",
    )


HKG_NODES = 40


def gap_query(ctx: ToolContext, gaps: list[str]) -> str:
    """What the walk looks for: the problem, its frame's target and the gaps the model named."""
    frame = ctx.state.problem_frame
    target = f"{frame.frame.target_object} {frame.frame.target_outcome}" if frame is not None else ""
    return "\n".join(p for p in (ctx.state.problem, target, *gaps) if p)


def curiosity_view(item: CuriosityItem) -> dict[str, object]:
    return {
        "id": item.id,
        "source": item.source,
        "node": item.node_text,
        "question": item.question,
        "relevance": item.relevance,
        "neighbours": item.neighbours,
    }


async def analyze_gaps(ctx: ToolContext, args: GapsInput) -> ToolOutcome:
    s = ctx.state
    known = set(s.gaps)
    new = [g.strip() for g in [*args.gaps, *(f"Convergence lock: {c}" for c in args.convergence_locks)]]
    s.gaps.extend(g for g in new if g and g not in known)
    query = gap_query(ctx, args.gaps)
    hkg = await ctx.hkg.neighbourhood(query, HKG_NODES) if ctx.hkg is not None else None
    scan = find_curiosity(
        query, s.knowledge_graph_nodes, s.knowledge_graph_edges, ctx.navigation_budget, ctx.count_tokens, hkg
    )
    s.curiosity_items = list(scan.items)
    payload = {
        "gaps": s.gaps,
        "thin_regions": [curiosity_view(i) for i in scan.items],
        "navigation": {
            "session_graph": navigation_view(scan.session_walk),
            "hkg": navigation_view(scan.hkg_walk) if scan.hkg_walk is not None else None,
        },
    }
    return ToolOutcome(payload, f"{len(s.gaps)} gap(s), {len(scan.items)} thin region(s)")


async def get_negative_knowledge(ctx: ToolContext, args: NoInput) -> ToolOutcome:
    s = ctx.state
    s.negative_knowledge_consulted = True
    items = [
        {"claim_id": str(n.claim_id), "claim": n.claim_text, "reason": n.reason, "round": n.round}
        for n in s.negative_knowledge
    ]
    graph = [
        {"claim_id": str(c.id), "claim": c.text, "verdict": verdict_word(c.status)} for c in s.knowledge_graph_nodes
    ]
    return ToolOutcome({"negative_knowledge": items, "graph_claims": graph}, f"{len(items)} rejected claim(s)")


BUILD_TOOLS = (
    ToolSpec(
        "add_to_knowledge_graph",
        "Add a claim the person accepted, qualified or merged in this round to the knowledge graph, with typed "
        "edges to claims already in it. Rejected claims cannot enter: they are negative knowledge. Every kept "
        "claim must be added before the phase can close; an edge that would close a cycle is refused.",
        AddToGraphInput,
        add_to_knowledge_graph,
    ),
    ToolSpec(
        "analyze_gaps",
        "Record the gaps in the knowledge graph and any convergence locks. Use it after the kept claims are in "
        "the graph; calls accumulate. Gaps steer the next round and close the knowledge document. The result "
        "adds `thin_regions`: relevant but barely connected nodes a walk over the graph found (offered to the "
        "person as next-round directions).",
        GapsInput,
        analyze_gaps,
    ),
    ToolSpec(
        "get_negative_knowledge",
        "Read the claims the person rejected (with their reasons) and the claims in the graph. In rounds 2+ it "
        "must be called before state_thesis or create_synthesis (rule 10), so rejected directions are not "
        "repeated. It takes no arguments and changes nothing else.",
        NoInput,
        get_negative_knowledge,
    ),
)
