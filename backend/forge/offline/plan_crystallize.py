"""CRYSTALLIZE for the offline model: write the document's narrative from the brief, generate it, stop.

Invariants:
    - One generate_knowledge_document call (it pauses the loop); if the conversation already holds
      a successful one in this phase, the model only says so.
    - The narrative is assembled from the brief's context alone (graph claims with verdicts and
      qualifications, negative knowledge, gaps), as a real model's would be: the strongest claim by
      mean score leads, each recommendation is a claim with its falsifiability condition, the open
      questions are the gaps (then the rejected directions). Nothing is invented.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phrasing import counted
from forge.offline.planning import OFFLINE_NOTE, PhasePlan, Task, plan_or_summary, schedule
from forge.offline.read_conversation import ConversationView

MAX_ITEMS = 5


def _claims(context: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [c for c in context.get("graph_claims", []) or [] if isinstance(c, Mapping) and c.get("text")]
    return sorted(found, key=lambda c: -float(c.get("mean_score") or 0.0))


def _scoped(claim: Mapping[str, Any]) -> str:
    limit = f" (only {claim['qualification']})" if claim.get("qualification") else ""
    return f"{claim['text']}{limit}"


def _rejected(count: int) -> str:
    return f"{counted(count, 'direction')} {'was' if count == 1 else 'were'} rejected"


def _summary(claims: Sequence[Mapping[str, Any]], rejected: int) -> str:
    if not claims:
        return f"No claim entered the knowledge graph; {_rejected(rejected)}. {OFFLINE_NOTE}"
    lead = claims[0]
    score = f", mean score {lead['mean_score']}" if lead.get("mean_score") is not None else ""
    return (
        f"{counted(len(claims), 'claim').capitalize()} entered the knowledge graph and {_rejected(rejected)}. "
        f"The strongest ({lead.get('verdict', 'kept')}{score}): {_scoped(lead)} {OFFLINE_NOTE}"
    )


def narrative(context: Mapping[str, Any]) -> dict[str, Any]:
    claims = _claims(context)
    negative = [n for n in context.get("negative_knowledge", []) or [] if isinstance(n, Mapping)]
    recommendations = [
        f"Test: {_scoped(c)} Stop if: {c.get('falsifiability_condition') or 'no condition was recorded'}"
        for c in claims[:MAX_ITEMS]
    ] or ["Run another round: no claim survived to be acted on."]
    gaps = [str(g) for g in context.get("gaps", []) or []]
    questions = gaps or [f"What would make this rejected direction work: {n.get('claim')}?" for n in negative]
    return {
        "executive_summary": _summary(claims, len(negative)),
        "recommendations": recommendations[:MAX_ITEMS],
        "open_questions": (questions or ["Which part of the problem did this session not reach?"])[:MAX_ITEMS],
    }


def plan_crystallize(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    calls = schedule(view, [Task("generate_knowledge_document", lambda _: narrative(view.context))])
    graph = view.context.get("graph_claims", []) or []
    return plan_or_summary(
        calls, lambda: f"The knowledge document is generated from {counted(len(graph), 'graph claim')}. {OFFLINE_NOTE}"
    )
