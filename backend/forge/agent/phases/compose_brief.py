"""The shape of the user message that opens a phase: a marker line, an instruction, a JSON context.

Invariants:
    - The first line is always `[forge phase=<phase> round=<n>]` (n counts from 1), so any model —
      including the offline one, which parses it — can tell which phase a conversation is in.
    - The context block starts with the problem and holds only what the person decided and what
      earlier phases produced; it is derived from the state, never from the model's own memory.
"""

from __future__ import annotations

import json
from typing import Any

from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, user_text

MARKER = "[forge phase={phase} round={round}]"


def compose_brief(phase: Phase, state: ForgeState, instruction: str, context: dict[str, Any]) -> Message:
    marker = MARKER.format(phase=phase.value, round=state.current_round + 1)
    block = json.dumps({"problem": state.problem, **context}, ensure_ascii=False, indent=1)
    return user_text(f"{marker}\n{instruction}\n```json\n{block}\n```")


def claims_view(state: ForgeState) -> list[dict[str, Any]]:
    """The round's claims as VALIDATE and BUILD see them, with the index a tool call refers to."""
    return [
        {
            "index": i,
            "id": str(c.id),
            "text": c.text,
            "thesis": c.thesis_text,
            "antithesis": c.antithesis_text,
            "status": c.status.value,
            "falsifiability_condition": c.falsifiability_condition,
            "evidence_sources": [e.source for e in c.evidence],
            "cross_domain_source": c.cross_domain_source,
            "builds_on": [str(b) for b in c.builds_on],
            "user_feedback": c.user_feedback,
            "rejection_reason": c.rejection_reason,
        }
        for i, c in enumerate(state.current_round_claims)
    ]


def graph_view(state: ForgeState) -> list[dict[str, Any]]:
    return [{"id": str(c.id), "text": c.text, "status": c.status.value} for c in state.knowledge_graph_nodes]
