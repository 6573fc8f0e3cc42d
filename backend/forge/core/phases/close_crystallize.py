"""Closing CRYSTALLIZE: its work gate only — no review follows; the document ends the session.

Invariants:
    - The phase is complete exactly when the knowledge document has been generated.
"""

from __future__ import annotations

from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState


def check_crystallize_work_complete(state: ForgeState) -> RuleViolation | None:
    if state.knowledge_document_markdown is None:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            "CRYSTALLIZE is incomplete: call generate_knowledge_document to finish.",
        )
    return None
