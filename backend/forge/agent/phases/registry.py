"""The explicit registry of the six phase definitions.

Invariants:
    - Listed by hand (no discovery), one entry per Phase, in pipeline order; each entry's own
      `phase` is its key.
    - `phase_briefs.phase_kickoff(state)` is the current phase's brief, looked up here.
"""

from __future__ import annotations

from collections.abc import Mapping

from forge.agent.phases import build, crystallize, decompose, explore, synthesize, validate
from forge.agent.phases.phase_definition import PhaseDefinition
from forge.core.domain_types import Phase

PHASES: Mapping[Phase, PhaseDefinition] = {
    Phase.DECOMPOSE: decompose.DEFINITION,
    Phase.EXPLORE: explore.DEFINITION,
    Phase.SYNTHESIZE: synthesize.DEFINITION,
    Phase.VALIDATE: validate.DEFINITION,
    Phase.BUILD: build.DEFINITION,
    Phase.CRYSTALLIZE: crystallize.DEFINITION,
}


def phase_definition(phase: Phase) -> PhaseDefinition:
    return PHASES[phase]
