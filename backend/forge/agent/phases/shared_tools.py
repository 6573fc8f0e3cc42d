"""The tools no single phase owns: `research` and the cross-cutting tools.

Invariants:
    - Every research call is recorded in ForgeState (query, hits, phase, round, time, provider, and the
      English rendering also searched for a query in another language: `research.cross_language`) —
      this is what the research gates (rules 12-15) and the provenance check of rule 7 read. It
      carries the model turn that ran it: a recording call of that same turn cannot cite it yet.
    - The person's own insights enter through the build decision (`add_insight`), never through a
      model tool: a model tool that adds a validated claim would skip validation.
    - `recall` returns what the context curator left out of the current call (`ctx.recallable`, set by
      the runner per call), by the ids its note names or by a query, within RECALL_TOKENS.
    - Which phase offers which of these is each phase definition's `tool_names`; they are listed
      here once so the tool registry holds every tool exactly once.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.call_model import charge_usage
from forge.agent.tool_context import NoInput, ToolContext, ToolOutcome, ToolSpec
from forge.core.curation.recall_dropped import recall as recall_items
from forge.core.research.results import (
    answered_by,
    found_by_of,
    model_usage_of,
    rendered_by_of,
    renderings_of,
    research_warning_of,
)
from forge.core.session import events as ev
from forge.core.session.records import ResearchRecord


class ResearchInput(BaseModel):
    query: str = Field(
        min_length=3,
        max_length=400,
        description="Plain words naming the subject, in the problem's language; it must share terms with what "
        "it unlocks (the problem, the source domain, the thesis or the claim). A query in another language than "
        "the corpus's (English) is also searched in its English rendering.",
    )
    limit: int = Field(default=5, ge=1, le=10, description="How many results to return (1-10).")


async def research(ctx: ToolContext, args: ResearchInput) -> ToolOutcome:
    found = await ctx.research.search(
        args.query, session_id=ctx.session_id, limit=args.limit, session_documents=ctx.state.session_documents
    )
    hits = tuple(found)
    s = ctx.state
    provider, warning = answered_by(found, ctx.research.name), research_warning_of(found)
    renderings, found_by = renderings_of(found), found_by_of(found)
    usage, priced_as = model_usage_of(found)
    if usage.total:  # the query's rendering in English: billed to the session like every model call
        charge_usage(ctx, priced_as, usage)
    at = ctx.clock.now()
    s.record_research(
        ResearchRecord(args.query, hits, s.current_phase, s.current_round, at, provider, s.model_turn, renderings)
    )
    results: list[dict[str, str]] = [{"source": h.source, "title": h.title, "snippet": h.snippet} for h in hits]
    if renderings:  # a query in another language than the corpus's: say which query found each result
        results = [{**r, "found_by": found_by.get(r["source"], args.query)} for r in results]
    payload: dict[str, object] = {"query": args.query, "provider": provider, "results": results}
    if renderings:
        payload["searched_as"] = [args.query, *renderings]
        payload["rendered_by"] = rendered_by_of(found) or "model"
    notices = (ev.research_warning(ctx.research.name, warning),) if warning else ()
    return ToolOutcome(payload, f"{len(hits)} result(s) for “{args.query}”", sources=hits, notices=notices)


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


class RecallInput(BaseModel):
    ids: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="Ids from the context curator's note (like m12-15).",
    )
    query: str = Field(
        default="",
        max_length=400,
        description="Without ids: words naming what to find among the left-out exchanges.",
    )


RECALL_TOKENS = 6_000


async def recall(ctx: ToolContext, args: RecallInput) -> ToolOutcome:
    available = list(ctx.recallable.values())
    if not available:
        return ToolOutcome({"items": [], "note": "Nothing was left out of this context."}, "nothing to recall")
    found = recall_items(available, args.ids, args.query, RECALL_TOKENS, ctx.count_tokens)
    items = [{"id": i.id, "phase": i.phase, "tools": list(i.tools), "text": i.text} for i in found.items]
    payload: dict[str, object] = {"items": items}
    if found.unknown_ids:
        payload["unknown_ids"] = list(found.unknown_ids)
        payload["known_ids"] = [i.id for i in available]
    if found.shortened:
        payload["shortened"] = list(found.shortened)
    return ToolOutcome(payload, f"recalled {len(items)} exchange(s)")


RESEARCH = "research"
CROSS_CUTTING = ("get_session_status", "recall")

SHARED_TOOLS = (
    ToolSpec(
        "get_session_status",
        "Read where the session stands: phase, round, claim counts, graph size and research calls this phase. "
        "Every tool result already carries a one-line `progress`, so call this only when unsure. It takes no "
        "arguments and changes nothing.",
        NoInput,
        get_session_status,
    ),
    ToolSpec(
        "recall",
        "Read again an earlier exchange (tool results, replies) the context curator left out of this call: "
        "ids from its note, or a query. It changes nothing.",
        RecallInput,
        recall,
    ),
    ToolSpec(
        RESEARCH,
        "Search the local corpus: the shipped primers and the documents the person attached to this session. "
        "Use it to find evidence to cite and to unlock the tools that require research first (rules 12-15): "
        "its query must share terms with the subject. Cite only `source` strings it returned, copied exactly. "
        "Results are ranked by word overlap, so check that a hit is really about your subject before citing it. "
        "The shipped corpus is English: a query in another language is also searched as the model renders it in "
        "English, or without a model as a bilingual dictionary glosses it word by word (`searched_as`, "
        "`rendered_by`), and each result's `found_by` names the query that found it.",
        ResearchInput,
        research,
    ),
)
