"""The message that opens (or resumes) the current phase: that phase's brief.

Invariants:
    - The brief itself — marker line `[forge phase=<phase> round=<n>]`, instruction, JSON context —
      is defined with its phase (`phases/<phase>.py`, shaped by `phases/compose_brief.py`); this
      is only the lookup by the state's current phase.
    - A phase marked `own_context` sends from its brief on, never the earlier conversation.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.agent.phases.compose_brief import MARKER
from forge.agent.phases.registry import phase_definition
from forge.core.llm.messages import Message, Role
from forge.core.session.forge_state import ForgeState


def phase_kickoff(state: ForgeState) -> Message:
    return phase_definition(state.current_phase).brief(state)


def messages_to_send(state: ForgeState, messages: Sequence[Message]) -> tuple[Message, ...]:
    """The conversation a request carries: all of it, or for an `own_context` phase only its latest
    brief and what followed (the whole conversation when no brief of this round is found)."""
    if not phase_definition(state.current_phase).own_context:
        return tuple(messages)
    marker = MARKER.format(phase=state.current_phase.value, round=state.current_round + 1)
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == Role.USER and messages[index].text.startswith(marker):
            return tuple(messages[index:])
    return tuple(messages)
