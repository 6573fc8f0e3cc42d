"""Phase 6 (CRYSTALLIZE) and the cross-cutting tools.

Invariants:
    - generate_knowledge_document renders with the pure renderer and pauses the loop.
    - submit_user_insight adds a user-contributed claim to the graph, citing only researched sources.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.handlers.build import NoInput
from forge.agent.handlers.evidence_from_research import evidence_for_sources
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, EvidenceType
from forge.core.enforce_claim_rules import check_sources_researched
from forge.core.records import Claim
from forge.core.render_knowledge_document import DocumentInput, render_knowledge_document


class InsightInput(BaseModel):
    insight: str = Field(min_length=5, max_length=4000)
    evidence_sources: list[str] = Field(default_factory=list)


async def generate_knowledge_document(ctx: ToolContext, args: NoInput) -> ToolOutcome:
    doc = DocumentInput(str(ctx.session_id), ctx.state, ctx.model_label, ctx.clock.now())
    markdown = render_knowledge_document(doc)
    ctx.state.knowledge_document_markdown = markdown
    return ToolOutcome({"generated": True, "characters": len(markdown)}, "knowledge document generated", pauses=True)


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


CRYSTALLIZE_TOOLS = (
    ToolSpec(
        "generate_knowledge_document",
        "Generate the final 10-section Knowledge Document. Ends the session.",
        NoInput,
        generate_knowledge_document,
    ),
)

CROSS_CUTTING_TOOLS = (
    ToolSpec("get_session_status", "Current phase, round, claim counts and graph size.", NoInput, get_session_status),
    ToolSpec(
        "submit_user_insight",
        "Add an insight the user contributed to the knowledge graph.",
        InsightInput,
        submit_user_insight,
    ),
)
