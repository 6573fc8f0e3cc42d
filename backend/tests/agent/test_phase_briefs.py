"""phase_kickoff: the message that opens the current phase is that phase's own brief."""

from __future__ import annotations

import pytest

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.phases.registry import phase_definition
from forge.core.domain_types import Phase
from forge.core.session.forge_state import ForgeState


@pytest.mark.parametrize("phase", list(Phase))
def test_phase_kickoff_is_the_current_phases_brief(phase: Phase) -> None:
    state = ForgeState(problem="How can a hospital cut emergency wait times without more staff?")
    state.enter_phase(phase)
    assert phase_kickoff(state) == phase_definition(phase).brief(state)
    assert phase_kickoff(state).text.startswith(f"[forge phase={phase.value} round=1]\n")
