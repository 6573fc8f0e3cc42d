"""The `research` tool: searches the configured ResearchProvider and records the call.

Invariants:
    - Every call is recorded in ForgeState (query, hits, phase, round, time, provider) — this is
      what the research gates (rules 12-15) and the provenance check of rule 7 read.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.records import ResearchRecord


class ResearchInput(BaseModel):
    query: str = Field(min_length=3, max_length=400, description="What to look for, in plain words.")
    limit: int = Field(default=5, ge=1, le=10)


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


RESEARCH_TOOLS = (
    ToolSpec(
        "research",
        "Search the research provider (web or local corpus). Required before map_state_of_art, "
        "search_cross_domain, find_antithesis and attempt_falsification; the query must name the subject. "
        "Cite only `source` values returned here.",
        ResearchInput,
        research,
    ),
)
