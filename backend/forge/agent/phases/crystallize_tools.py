"""Phase 6 (CRYSTALLIZE) tools: the knowledge document.

Invariants:
    - generate_knowledge_document takes what only the model can write — the executive summary,
      the recommendations and the open questions — keeps it in the state, labelled with the model,
      and renders the document with the pure renderer (the narrative first, then the ten sections
      built by code from what was recorded). It pauses the loop: the document ends the session.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.document.render import DocumentInput, render_knowledge_document
from forge.core.document.words import document_words_for
from forge.core.session.records import DocumentNarrative


class DocumentInputArgs(BaseModel):
    executive_summary: str = Field(
        min_length=50,
        max_length=3000,
        description="One paragraph for a decision-maker, in the problem's language: the strongest claims with "
        "their qualifications, how well they survived validation, and what they mean for the problem.",
    )
    recommendations: list[str] = Field(
        min_length=1,
        max_length=7,
        description="Concrete next actions, most valuable first, each tied to a claim in the graph and its "
        "falsifiability condition (what to try, where, and what result would stop it).",
    )
    open_questions: list[str] = Field(
        min_length=1,
        max_length=7,
        description="The questions that matter most for acting on this knowledge and that the graph cannot "
        "answer yet (from the gaps and the negative knowledge), each specific enough to research.",
    )


async def generate_knowledge_document(ctx: ToolContext, args: DocumentInputArgs) -> ToolOutcome:
    ctx.state.document_narrative = DocumentNarrative(
        args.executive_summary.strip(),
        tuple(r.strip() for r in args.recommendations if r.strip()),
        tuple(q.strip() for q in args.open_questions if q.strip()),
        ctx.model_label,
    )
    words = document_words_for(ctx.state.problem)
    doc = DocumentInput(str(ctx.session_id), ctx.state, ctx.model_label, ctx.clock.now(), words)
    markdown = render_knowledge_document(doc)
    ctx.state.knowledge_document_markdown = markdown
    return ToolOutcome({"generated": True, "characters": len(markdown)}, "knowledge document generated", pauses=True)


CRYSTALLIZE_TOOLS = (
    ToolSpec(
        "generate_knowledge_document",
        "Write the knowledge document's executive summary, recommendations and open questions, and render the "
        "document: your text comes first, then ten sections built by code from what was recorded (claims, "
        "evidence, verdicts, negative knowledge, gaps). Call it once, when the brief says the session is "
        "resolved; write only from the brief's claims and gaps, keeping every qualification. It ends the session.",
        DocumentInputArgs,
        generate_knowledge_document,
    ),
)
