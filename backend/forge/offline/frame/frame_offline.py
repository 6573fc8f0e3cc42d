"""The offline problem frame: the frame's fields from the problem text's own reading; nothing invented."""

from __future__ import annotations

from typing import Any

from forge.engine.frame.frame_problem import FrameOutput
from forge.offline.frame.problem_frame import frame_problem as read_problem
from forge.ports import StructuredRequest

# An outcome with a direction compares with the baseline; one without says the objective is met.
_OUTCOME_WORD = {"decrease": "lower", "increase": "higher"}


def offline_frame(request: StructuredRequest[Any]) -> FrameOutput:
    reading = read_problem(request.input)
    verb = reading.direction_verb if reading.goal_verb in ("", "make") else reading.goal_verb
    target = reading.target
    objective = f"{verb.capitalize()} {target}"
    comparison = _OUTCOME_WORD.get(reading.goal_direction)
    return FrameOutput(
        objective=objective,
        target_object=target,
        target_outcome=(
            f"{target} measurably {comparison} than today's baseline"
            if comparison
            else f"{objective[0].lower()}{objective[1:]}, shown against today's baseline"
        ),
        hard_constraints=list(reading.constraints),
        success_criteria=[
            f"{target}: a baseline measured before any change, and the change against it after a fixed trial period"
        ],
        stakeholders=list(reading.actors),
        scope=f"Within the problem as stated: {request.input.splitlines()[0].strip()}",
        domain_tags=list(reading.key_terms[:3]),
    )
