"""Phase 6 (CRYSTALLIZE) tools: the knowledge document.

Invariants:
    - generate_knowledge_document renders with the pure renderer (the model writes none of it)
      and pauses the loop: the document ends the session.
"""

from __future__ import annotations

from forge.agent.tool_context import NoInput, ToolContext, ToolOutcome, ToolSpec
from forge.core.render_knowledge_document import DocumentInput, render_knowledge_document


async def generate_knowledge_document(ctx: ToolContext, args: NoInput) -> ToolOutcome:
    doc = DocumentInput(str(ctx.session_id), ctx.state, ctx.model_label, ctx.clock.now())
    markdown = render_knowledge_document(doc)
    ctx.state.knowledge_document_markdown = markdown
    return ToolOutcome({"generated": True, "characters": len(markdown)}, "knowledge document generated", pauses=True)


CRYSTALLIZE_TOOLS = (
    ToolSpec(
        "generate_knowledge_document",
        "Render the final 10-section Knowledge Document from the session's state: the graph's claims with "
        "their evidence, verdicts, negative knowledge and gaps. Call it once, when the brief says the session "
        "is resolved; the document is built by code from what is recorded, so it takes no arguments. It ends "
        "the session.",
        NoInput,
        generate_knowledge_document,
    ),
)
