"""CRYSTALLIZE for the offline model: the document's narrative from the brief, then generate it.

Invariants: one generate_knowledge_document call; the narrative uses the brief alone (graph claims,
negative knowledge, gaps): the strongest claim leads, each recommendation is a claim's action and the
condition that would stop it, the open questions are the gaps. Nothing is invented.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.plan_validate import claim_action
from forge.offline.phases.planning import OFFLINE_NOTE, ConversationView, PhasePlan, Task, plan_or_summary, schedule
from forge.offline.text.wording import shorten

MAX_ITEMS = 5
MAX_ACTION_CHARS = 240


def _claims(context: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [c for c in context.get("graph_claims", []) or [] if isinstance(c, Mapping) and c.get("text")]
    return sorted(found, key=lambda c: -float(c.get("mean_score") or 0.0))


def recommendation(claim: Mapping[str, Any]) -> str:
    """ "Try: <the claim's clause before 'will'> (only <qualification>). Stop if <what makes it false>." """
    action = shorten(claim_action(str(claim["text"])), MAX_ACTION_CHARS)
    limit = f" (only {claim['qualification']})" if claim.get("qualification") else ""
    condition = str(claim.get("falsifiability_condition") or "").strip().rstrip(".")
    at = condition.find("false if ")
    stop = f"Stop if {condition[at + 9 :]}." if at >= 0 else f"Stop if this fails: {condition}." if condition else ""
    return f"Try: {action[:1].upper()}{action[1:]}{limit}. {stop or 'No stopping condition was recorded.'}"


def _summary(claims: Sequence[Mapping[str, Any]], rejected: int) -> str:
    counts = f"Claims in the knowledge graph: {len(claims)}; rejected directions: {rejected}."
    if not claims:
        return f"{counts} {OFFLINE_NOTE}"
    lead, only = claims[0], f" (only {claims[0]['qualification']})" if claims[0].get("qualification") else ""
    score = f", mean score {lead['mean_score']}" if lead.get("mean_score") is not None else ""
    return f"{counts} The strongest ({lead.get('verdict', 'kept')}{score}): {lead['text']}{only} {OFFLINE_NOTE}"


def narrative(context: Mapping[str, Any]) -> dict[str, Any]:
    claims = _claims(context)
    negative = [n for n in context.get("negative_knowledge", []) or [] if isinstance(n, Mapping)]
    recommendations = [recommendation(c) for c in claims[:MAX_ITEMS]] or [
        "Run another round: no claim survived to be acted on."
    ]
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
        calls, lambda: f"The knowledge document is generated from the graph's claims ({len(graph)}). {OFFLINE_NOTE}"
    )
