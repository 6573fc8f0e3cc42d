"""Payloads of the five review events, built from the state alone.

Invariants:
    - Every list item carries its `index`, the number a review refers to, so a client never has
      to guess positions; claims also carry their `id`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from forge.core.domain_types import ReviewType
from forge.core.forge_state import ForgeState
from forge.core.project_graph_to_flow import project_graph_to_flow
from forge.core.records import Claim
from forge.core.state_codec import encode_value


def _indexed(items: list[Any]) -> list[dict[str, Any]]:
    return [{"index": i, **encode_value(item)} for i, item in enumerate(items)]


def claim_view(index: int, claim: Claim) -> dict[str, Any]:
    view: dict[str, Any] = {"index": index, **encode_value(claim)}
    view["score_mean"] = round(claim.scores.mean, 3) if claim.scores else None
    return view


def _decompose(state: ForgeState) -> dict[str, Any]:
    return {
        "fundamentals": list(state.fundamentals),
        "state_of_art": encode_value(state.state_of_art),
        "assumptions": _indexed(state.assumptions),
        "reframings": _indexed(state.reframings),
    }


def _explore(state: ForgeState) -> dict[str, Any]:
    return {
        "morphological_box": encode_value(state.morphological_box),
        "analogies": _indexed(state.cross_domain_analogies),
        "contradictions": _indexed(state.contradictions),
        "adjacent": list(state.adjacent_possible),
    }


def _claims(state: ForgeState) -> dict[str, Any]:
    return {
        "round": state.current_round,
        "claims": [claim_view(i, c) for i, c in enumerate(state.current_round_claims)],
    }


def _build(state: ForgeState) -> dict[str, Any]:
    flow = project_graph_to_flow(state.knowledge_graph_nodes, state.knowledge_graph_edges)
    return {
        "graph": {"nodes": [asdict(n) for n in flow.nodes], "edges": [asdict(e) for e in flow.edges]},
        "gaps": list(state.gaps),
        "negative_knowledge": encode_value(state.negative_knowledge),
        "round": state.current_round,
        "max_rounds_reached": state.max_rounds_reached,
    }


def build_review_payload(state: ForgeState, review: ReviewType) -> dict[str, Any]:
    builders = {
        ReviewType.DECOMPOSE_REVIEW: _decompose,
        ReviewType.EXPLORE_REVIEW: _explore,
        ReviewType.CLAIMS_REVIEW: _claims,
        ReviewType.VERDICTS: _claims,
        ReviewType.BUILD_DECISION: _build,
    }
    return {"review": review.value, **builders[review](state)}
