"""The tools no single phase owns: `research` and the cross-cutting tools.

Invariants:
    - Every research call is recorded in ForgeState (query, hits, phase, round, time, provider) —
      this is what the research gates (rules 12-15) and the provenance check of rule 7 read.
    - submit_user_insight adds a user-contributed claim to the graph, citing only researched sources.
    - Which phase offers which of these is each phase definition's `tool_names`; they are listed
      here once so the tool registry holds every tool exactly once.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import evidence_for_sources
from forge.agent.tool_context import NoInput, ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, EvidenceType
from forge.core.enforce_claim_rules import check_sources_researched
from forge.core.records import Claim, ResearchRecord


class ResearchInput(BaseModel):
    query: str = Field(min_length=3, max_length=400, description="What to look for, in plain words.")
    limit: int = Field(default=5, ge=1, le=10)


class InsightInput(BaseModel):
    insight: str = Field(min_length=5, max_length=4000)
    evidence_sources: list[str] = Field(default_factory=list)


async def research(ctx: ToolContext, args: ResearchInput) -> ToolOutcome:
    hits = tuple(
        await ctx.research.search(
            args.query, session_id=ctx.session_id, limit=args.limit, session_documents=ctx.state.session_documents
        )
    )
    s = ctx.state
    s.record_research(
        ResearchRecord(args.query, hits, s.current_phase, s.current_round, ctx.clock.now(), ctx.research.name)
    )
    payload = {
        "query": args.query,
        "provider": ctx.research.name,
        "results": [{"source": h.source, "title": h.title, "snippet": h.snippet} for h in hits],
    }
    return ToolOutcome(payload, f"{len(hits)} result(s) for “{args.query}”", sources=hits)


async def get_session_status(ctx: ToolContext, args: NoInput) -> ToolOutcome:
    s = ctx.state
    return ToolOutcome(
        {
            "phase": s.current_phase.value,
            "round": s.current_round,
            "claims_this_round": len(s.current_round_claims),
            "claims_remaining": s.claims_remaining,
            "graph_nodes": len(s.knowledge_graph_nodes),
            "graph_edges": len(s.knowledge_graph_edges),
            "research_calls_this_phase": len(s.web_searches_this_phase),
            "deep_dive_claim_id": str(s.deep_dive_target_claim_id) if s.deep_dive_target_claim_id else None,
        },
        f"{s.current_phase.value}, round {s.current_round + 1}",
    )


async def submit_user_insight(ctx: ToolContext, args: InsightInput) -> ToolOutcome:
    s = ctx.state
    violation = check_sources_researched(s, args.evidence_sources)
    if violation:
        return ToolOutcome.failed(violation)
    claim_id = ClaimId(ctx.new_id())
    evidence = evidence_for_sources(s, args.evidence_sources, EvidenceType.SUPPORTING, ctx.new_id, claim_id)
    s.knowledge_graph_nodes.append(
        Claim(
            claim_id,
            args.insight,
            ClaimType.USER_CONTRIBUTED,
            s.current_round,
            s.current_phase,
            status=ClaimStatus.VALIDATED,
            evidence=evidence,
        )
    )
    s.user_insights.append(args.insight)
    return ToolOutcome({"claim_id": str(claim_id)}, "user insight added to the graph")


RESEARCH = "research"
CROSS_CUTTING = ("get_session_status", "submit_user_insight")

SHARED_TOOLS = (
    ToolSpec("get_session_status", "Current phase, round, claim counts and graph size.", NoInput, get_session_status),
    ToolSpec(
        "submit_user_insight",
        "Add an insight the user contributed to the knowledge graph.",
        InsightInput,
        submit_user_insight,
    ),
    ToolSpec(
        RESEARCH,
        "Search the research provider (web or local corpus). Required before map_state_of_art, "
        "search_cross_domain, find_antithesis and attempt_falsification; the query must name the subject. "
        "Cite only `source` values returned here.",
        ResearchInput,
        research,
    ),
)
