"""Stage 1: the problem frame, asked of any StructuredModel, then audited (CP-1).

Invariants:
    - The person's own constraints (the session's "Constraints:" list) are always in the frame's
      hard constraints, whatever the model returns: a model may add limits, never drop the person's.
    - The result is an AuditedFrame (duplicates merged, conflicts and uncheckable limits flagged)
      or a FramingFailure with the message to show; usage is reported either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.frame.problem_constraints import split_constraints
from forge.core.frame.problem_frame import AuditedFrame, ProblemFrame, audit_frame, make_frame
from forge.core.llm.messages import Usage
from forge.ports import StructuredFailure, StructuredModel, StructuredRequest

FRAME_INSTRUCTIONS = """You frame a hard problem before anyone proposes a solution.
Read the problem and state, precisely and without solving it:
- objective: one sentence, starting with a verb, saying what must change and in which direction.
- target_object: the thing (system, process, population) that must change.
- target_outcome: the measurable state that counts as the change having happened.
- hard_constraints: limits a solution must not break — every limit the person stated, in their words,
  plus any the problem implies without doubt. Never invent a limit that is merely convenient.
- soft_constraints: preferences that may be traded off.
- success_criteria: 1-4 checks with a metric, a baseline or threshold, and a time window
  (e.g. "median permit decision under 30 days within 6 months", "crack width below 0.3 mm after 50 freeze-thaw cycles").
- stakeholders: who is affected or must act.
- scope: what is in and out of scope, in one or two sentences.
- domain_tags: 1-4 lower-case names of the problem's own field(s) (e.g. "materials science", "public administration").
Write in the language of the problem."""


class FrameOutput(BaseModel):
    objective: str = Field(min_length=3, description="One sentence, starting with a verb: what must change, which way.")
    target_object: str = Field(description="The system, process or population that must change.")
    target_outcome: str = Field(description="The measurable state that counts as success.")
    hard_constraints: list[str] = Field(default_factory=list, description="Limits a solution must not break.")
    soft_constraints: list[str] = Field(default_factory=list, description="Preferences that may be traded off.")
    success_criteria: list[str] = Field(
        default_factory=list, max_length=6, description="Checks with a metric, a threshold and a time window."
    )
    stakeholders: list[str] = Field(default_factory=list, description="Who is affected or must act.")
    scope: str = Field(default="", description="What is in and out of scope.")
    domain_tags: list[str] = Field(
        default_factory=list, max_length=6, description="Lower-case names of the problem's own field(s)."
    )


@dataclass(frozen=True, slots=True)
class FramingFailure:
    message: str
    usage: Usage


@dataclass(frozen=True, slots=True)
class Framed:
    audited: AuditedFrame
    usage: Usage


def frame_request(problem: str) -> StructuredRequest[FrameOutput]:
    return StructuredRequest(
        name="record_problem_frame",
        purpose="Record the problem frame: objective, target, constraints, success criteria, stakeholders, scope.",
        instructions=FRAME_INSTRUCTIONS,
        input=problem,
        output=FrameOutput,
        max_tokens=2048,
    )


def frame_from_output(output: FrameOutput, person_constraints: tuple[str, ...]) -> ProblemFrame | str:
    return make_frame(
        output.objective,
        output.target_object,
        output.target_outcome,
        hard_constraints=[*person_constraints, *output.hard_constraints],
        soft_constraints=output.soft_constraints,
        success_criteria=output.success_criteria,
        stakeholders=output.stakeholders,
        scope=output.scope,
        domain_tags=output.domain_tags,
    )


async def frame_problem(model: StructuredModel, problem: str) -> Framed | FramingFailure:
    outcome = await model.generate(frame_request(problem))
    if isinstance(outcome, StructuredFailure):
        return FramingFailure(outcome.message, outcome.usage)
    frame = frame_from_output(outcome.value, split_constraints(problem).constraints)
    if isinstance(frame, str):
        return FramingFailure(frame, outcome.usage)
    return Framed(audit_frame(frame), outcome.usage)
