"""The user message that opens each phase: a marker line, an instruction and a JSON context block.

Invariants:
    - The first line is always `[forge phase=<phase> round=<n>]` (n counts from 1), so any model —
      including the offline one — can tell which phase a conversation is in.
    - The context block holds only what the person decided and what earlier phases produced; it is
      derived from the state, never from the model's own memory.
"""

from __future__ import annotations

import json
from typing import Any

from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, user_text
from forge.core.state_codec import encode_value

MARKER = "[forge phase={phase} round={round}]"

INSTRUCTIONS: dict[Phase, str] = {
    Phase.DECOMPOSE: "Decompose the problem: research it, then fundamentals, state of the art, >= 3 assumptions, "
    ">= 3 reframings.",
    Phase.EXPLORE: "Explore the solution space: morphological box, >= 2 distant-domain analogies (research each "
    "domain first), >= 1 TRIZ contradiction, the adjacent possible.",
    Phase.SYNTHESIZE: "Synthesize up to 3 claims by thesis -> antithesis -> synthesis, grounded in research.",
    Phase.VALIDATE: "Validate every claim: research to disprove it, attempt_falsification, check_novelty, score_claim.",
    Phase.BUILD: "Build the knowledge graph from the person's verdicts: add accepted/qualified/merged claims with "
    "typed edges, then analyze gaps.",
    Phase.CRYSTALLIZE: "Crystallize: generate the knowledge document.",
}


def _claims_view(state: ForgeState) -> list[dict[str, Any]]:
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


def _graph_view(state: ForgeState) -> list[dict[str, Any]]:
    return [{"id": str(c.id), "text": c.text, "status": c.status.value} for c in state.knowledge_graph_nodes]


def _context(state: ForgeState) -> dict[str, Any]:
    phase = state.current_phase
    base: dict[str, Any] = {"problem": state.problem}
    if phase == Phase.EXPLORE:
        base |= {
            "fundamentals": state.fundamentals,
            "selected_reframings": [r.text for r in state.selected_reframings],
            "assumptions": encode_value(state.assumptions),
            "suggested_domains": state.suggested_domains,
        }
    elif phase == Phase.SYNTHESIZE:
        target = state.graph_node(state.deep_dive_target_claim_id) if state.deep_dive_target_claim_id else None
        base |= {
            "selected_reframings": [r.text for r in state.selected_reframings],
            "starred_analogies": encode_value(state.starred_analogies),
            "contradictions": encode_value(state.contradictions),
            "graph_claims": _graph_view(state),
            "negative_knowledge": encode_value(state.negative_knowledge),
            "suggested_domains": state.suggested_domains,
            "deep_dive": {"id": str(target.id), "text": target.text} if target else None,
        }
    elif phase in (Phase.VALIDATE, Phase.BUILD):
        base |= {"claims": _claims_view(state), "graph_claims": _graph_view(state)}
    elif phase == Phase.CRYSTALLIZE:
        base |= {"graph_claims": _graph_view(state), "gaps": state.gaps}
    return base


def phase_kickoff(state: ForgeState) -> Message:
    marker = MARKER.format(phase=state.current_phase.value, round=state.current_round + 1)
    context = json.dumps(_context(state), ensure_ascii=False, indent=1)
    return user_text(f"{marker}\n{INSTRUCTIONS[state.current_phase]}\n```json\n{context}\n```")
