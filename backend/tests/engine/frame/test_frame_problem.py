"""Stage 1 through the structured port: the person's constraints always survive, CP-1 runs, and the
offline model frames a problem from its own text."""

from __future__ import annotations

from typing import Any

from forge.core.frame.audit_constraints import ConstraintFindingKind
from forge.core.llm.messages import Usage
from forge.engine.frame.frame_problem import Framed, FrameOutput, FramingFailure, frame_problem, frame_request
from forge.offline.frame.problem_frame import offline_frame
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

PROBLEM = "How can a hospital cut emergency wait times?\n\nConstraints:\n- no new beds\n- budget under 50k"


class OneAnswer:
    def __init__(self, answer: FrameOutput | StructuredFailure) -> None:
        self.answer = answer
        self.requests: list[StructuredRequest[Any]] = []

    @property
    def label(self) -> str:
        return "one answer"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        if isinstance(self.answer, StructuredFailure):
            return self.answer
        return StructuredResult(self.answer, Usage(900, 300), 1)


async def test_the_persons_constraints_stay_hard_even_when_the_model_leaves_them_out() -> None:
    model = OneAnswer(
        FrameOutput(
            objective="Cut emergency wait times",
            target_object="emergency department",
            target_outcome="median wait under 30 minutes",
            hard_constraints=["no additional beds", "no new hires"],
            soft_constraints=["keep costs reasonable"],
        )
    )
    framed = await frame_problem(model, PROBLEM)
    assert isinstance(framed, Framed) and framed.usage == Usage(900, 300)
    assert framed.audited.frame.hard_constraints == ("no new beds", "budget under 50k", "no new hires")
    assert "no additional beds" in framed.audited.audit.findings[0].message  # merged into the person's wording
    assert [f.kind for f in framed.audited.audit.findings] == [
        ConstraintFindingKind.DUPLICATE,
        ConstraintFindingKind.UNDECIDABLE,
    ]
    (request,) = model.requests
    assert request.input == PROBLEM and request.output is FrameOutput


async def test_a_model_that_gives_no_valid_frame_is_a_failure_with_its_cost() -> None:
    model = OneAnswer(StructuredFailure("no valid frame after 3 attempts", Usage(50, 5), 3))
    assert await frame_problem(model, PROBLEM) == FramingFailure("no valid frame after 3 attempts", Usage(50, 5))


async def test_offline_frames_the_problem_from_its_own_words() -> None:
    model = OfflineStructuredModel({FrameOutput: offline_frame})
    framed = await frame_problem(model, "How can a city reduce traffic congestion without building new roads?")
    assert isinstance(framed, Framed)
    frame = framed.audited.frame
    assert frame.objective == "Reduce traffic congestion"
    assert frame.hard_constraints == ("without building new roads",)
    assert framed.usage == Usage()


async def test_offline_refuses_an_output_it_has_no_generator_for() -> None:
    outcome = await OfflineStructuredModel({}).generate(frame_request("How can a bakery cut food waste?"))
    assert isinstance(outcome, StructuredFailure) and "cannot produce `record_problem_frame`" in outcome.message
