"""The message that opens (or resumes) the current phase: that phase's brief.

Invariants:
    - The brief itself — marker line `[forge phase=<phase> round=<n>]`, instruction, JSON context —
      is defined with its phase (`phases/<phase>.py`, shaped by `phases/compose_brief.py`); this
      is only the lookup by the state's current phase.
"""

from __future__ import annotations

from forge.agent.phases.registry import phase_definition
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message


def phase_kickoff(state: ForgeState) -> Message:
    return phase_definition(state.current_phase).brief(state)
