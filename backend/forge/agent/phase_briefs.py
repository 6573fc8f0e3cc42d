"""The message that opens (or resumes) the current phase: that phase's brief.

Invariants:
    - The brief itself — marker line `[forge phase=<phase> round=<n>]`, instruction, JSON context —
      is defined with its phase (`phases/<phase>.py`, shaped by `phases/compose_brief.py`); this
      is only the lookup by the state's current phase.
    - Every brief lists the phase's tools, one line each (`tool_registry.phase_tool_lines`), and, where
      the phase offers research, says to record only after reading the research cited (the gates
      refuse a recording call in the same turn as its research).
    - A phase marked `own_context` sends from its brief on, never the earlier conversation.
    - The brief is stored when the phase opens, before the engine stages that open it have run;
      `refreshed_conversation` rebuilds it from the state once they have (VERIFY's verdicts reach
      VALIDATE's brief, BISO's pool EXPLORE's), as long as the model has not answered it yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.agent.phases.compose_brief import MARKER
from forge.agent.phases.registry import phase_definition
from forge.agent.tool_registry import phase_tool_lines
from forge.core.llm.messages import Message, Role, user_text
from forge.core.session.forge_state import ForgeState

RECORD_AFTER_READING = (
    "Record only after reading the research it cites: call research, read its results when they come back, "
    "then call the recording tool in a later turn, citing what they found. A recording call made in the same "
    "turn as the research it needs is refused (the results were not read yet). A web_search the provider runs "
    "for you, where offered, returns its results within your turn."
)


def tools_block(state: ForgeState) -> str:
    """The phase's tools, one line each, from the tool registry; with research, when recording may cite it."""
    definition = phase_definition(state.current_phase)
    lines = "\n".join(phase_tool_lines(state.current_phase))
    block = f"TOOLS THIS PHASE (any other tool returns TOOL_NOT_IN_PHASE):\n{lines}"
    return f"{block}\n{RECORD_AFTER_READING}" if definition.offers_research else block


def phase_kickoff(state: ForgeState) -> Message:
    """The phase's brief with its tools block before the JSON context (the brief's last block)."""
    text = phase_definition(state.current_phase).brief(state).text
    head, fence, context = text.rpartition("\n\n```json")
    tools = tools_block(state)
    return user_text(f"{head}\n\n{tools}{fence}{context}" if fence else f"{text}\n\n{tools}")


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


def refreshed_conversation(state: ForgeState, messages: Sequence[Message]) -> list[Message] | None:
    """The conversation with its last message, the current phase's unanswered brief, rebuilt from
    the state; None when the last message is no such brief or the rebuilt one says the same."""
    if not messages:
        return None
    last = messages[-1]
    marker = MARKER.format(phase=state.current_phase.value, round=state.current_round + 1)
    if last.role != Role.USER or not last.text.startswith(marker):
        return None
    fresh = phase_kickoff(state)
    return None if fresh == last else [*messages[:-1], fresh]
