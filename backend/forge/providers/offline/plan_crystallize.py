"""CRYSTALLIZE for the offline model: generate the knowledge document, then stop.

Invariants:
    - One generate_knowledge_document call (it pauses the loop); if the conversation already holds
      a successful one in this phase, the model only says so.
"""

from __future__ import annotations

from forge.providers.offline.offline_knowledge import OfflineKnowledge
from forge.providers.offline.planning import OFFLINE_NOTE, PhasePlan, Task, plan_or_summary, schedule
from forge.providers.offline.read_conversation import ConversationView


def plan_crystallize(view: ConversationView, knowledge: OfflineKnowledge) -> PhasePlan:
    calls = schedule(view, [Task("generate_knowledge_document", lambda _: {})])
    graph = view.context.get("graph_claims", []) or []
    return plan_or_summary(
        calls, lambda: f"The knowledge document is generated from {len(graph)} graph claim(s). {OFFLINE_NOTE}"
    )
