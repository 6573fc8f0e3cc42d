"""CRYSTALLIZE for the offline model: write the document's narrative from the brief, generate it, stop.

Invariants:
    - One generate_knowledge_document call (it pauses the loop); if the conversation already holds
      a successful one in this phase, the model only says so.
    - The narrative is assembled from the brief's context alone (graph claims with verdicts and
      qualifications, negative knowledge, gaps), as a real model's would be: the strongest claim by
      mean score leads, each recommendation is a claim's action and the result that would stop it,
      the open questions are the gaps (then the rejected directions). Nothing is invented.
    - A recommendation does not restate its claim: the document carries every claim in full, and the
      model's words are the session's most expensive output tokens. It quotes the claim's action (the
      clause before "will", without an "Extending '…': when …," preamble) and the falsifiability
      condition's sentence that says when it is false ("…: the claim is false if X" → "…: stop if X").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from forge.offline.offline_knowledge import OfflineKnowledge
from forge.offline.phases.planning import OFFLINE_NOTE, PhasePlan, Task, plan_or_summary, schedule
from forge.offline.phases.read_conversation import ConversationView
from forge.offline.text.wording import counted

MAX_ITEMS = 5
MAX_ACTION_CHARS = 240
_EXTENDING = re.compile(r"^Extending '[^']*':\s*when\b.*?,\s+(?=\S)", re.DOTALL)
_FALSE_IF = re.compile(r"\b(?:the claim is |it is )?false if\s+", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _claims(context: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [c for c in context.get("graph_claims", []) or [] if isinstance(c, Mapping) and c.get("text")]
    return sorted(found, key=lambda c: -float(c.get("mean_score") or 0.0))


def _scoped(claim: Mapping[str, Any]) -> str:
    limit = f" (only {claim['qualification']})" if claim.get("qualification") else ""
    return f"{claim['text']}{limit}"


def _rejected(count: int) -> str:
    return f"{counted(count, 'direction')} {'was' if count == 1 else 'were'} rejected"


def _action(claim: Mapping[str, Any]) -> str:
    """What to try: the claim's clause before "will", or its text cut at a word boundary."""
    text = _EXTENDING.sub("", str(claim["text"]))
    head, found, _ = text.partition(" will ")
    action = head if found and head else text
    if len(action) > MAX_ACTION_CHARS:
        action = action[:MAX_ACTION_CHARS].rsplit(" ", 1)[0] + "…"
    return action[:1].upper() + action[1:]


def _stop_rule(claim: Mapping[str, Any]) -> str:
    """The condition's sentence that says when the claim is false, as an instruction to stop."""
    condition = str(claim.get("falsifiability_condition") or "").strip()
    sentences = [s.strip() for s in _SENTENCE_END.split(condition) if s.strip()]
    stopping = next((s for s in sentences if _FALSE_IF.search(s)), None)
    if stopping is None:
        return f"Stop if this fails: {condition.rstrip('.')}." if condition else "No stopping condition was recorded."
    stop = _FALSE_IF.sub("stop if ", stopping, count=1)
    return stop[:1].upper() + stop[1:].rstrip(".") + "."


def recommendation(claim: Mapping[str, Any]) -> str:
    """'Try: <action> (only <qualification>). <when and how it is judged>: stop if <result>.'"""
    limit = f" (only {claim['qualification']})" if claim.get("qualification") else ""
    return f"Try: {_action(claim)}{limit}. {_stop_rule(claim)}"


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
        calls, lambda: f"The knowledge document is generated from {counted(len(graph), 'graph claim')}. {OFFLINE_NOTE}"
    )
