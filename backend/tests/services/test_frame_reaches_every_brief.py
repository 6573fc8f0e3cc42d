"""The frame in the exchange: a CP-1 conflict between the person's constraint and the frame's pauses
the session at the decompose review (the autopilot refuses to choose, saying why); once the person
drops one, the requests the model gets hold the HARD CONSTRAINTS block and the success criteria.

The model is the offline one behind a recorder (every request kept); the engine's frame is scripted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.recorded_offline_service import RecordingModel, last_brief, recorded_offline_service

from forge.core.domain_types import ReviewType
from forge.core.frame.constraint_changes import ConstraintChange
from forge.core.llm.messages import Usage
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import DecomposeReview
from forge.core.session.events import EventType
from forge.engine.frame.frame_problem import FrameOutput
from forge.ports import StructuredModel, StructuredRequest, StructuredResult
from forge.services.service_results import FailureKind, ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times?\n\nConstraints:\n- no overtime"
FRAME = FrameOutput(
    objective="Cut emergency wait times",
    target_object="emergency department",
    target_outcome="median wait under 30 minutes",
    hard_constraints=["use overtime", "no new beds"],
    success_criteria=["median wait under 30 minutes within 6 months"],
)


class ScriptedFrame:
    """The offline engine, except that the problem frame is the scripted one."""

    def __init__(self, inner: StructuredModel) -> None:
        self.inner = inner

    @property
    def label(self) -> str:
        return "scripted frame"

    async def generate(self, request: StructuredRequest[Any]) -> Any:
        if request.output is FrameOutput:
            return StructuredResult(FRAME, Usage(10, 10), 1)
        return await self.inner.generate(request)


async def test_a_constraint_conflict_pauses_for_the_person_then_every_brief_carries_the_frame(tmp_path: Path) -> None:
    model = RecordingModel()
    async with recorded_offline_service(tmp_path, model, ScriptedFrame) as container:
        service = container.service
        record = await service.create(PROBLEM)
        assert not isinstance(record, ServiceFailure)
        await service.start_run(record.id)
        await container.runs.wait(record.id)
        state = await service.state(record.id)
        assert not isinstance(state, ServiceFailure) and state.awaiting_input_type == ReviewType.DECOMPOSE_REVIEW
        decompose = last_brief(model, "decompose")  # rebuilt once the frame stage ran, before the first call
        assert model.requests[0].messages[0].text == decompose
        assert "- no overtime (the person's)\n- use overtime (frame)\n- no new beds (frame)" in decompose

        events = await service.events(record.id, 0, 500)
        assert not isinstance(events, ServiceFailure)
        (review,) = [e for e in events if e.type == EventType.REVIEW_DECOMPOSE]
        (conflict,) = review.data["constraint_conflicts"]
        assert conflict["constraints"] == ["no overtime", "use overtime"]

        stopped = await service.submit_autopilot_review(record.id, AutopilotPolicy())
        assert isinstance(stopped, ServiceFailure) and stopped.kind == FailureKind.CONFLICT
        assert stopped.message.startswith("Autopilot stopped at the decompose review")
        assert "“use overtime”" in stopped.message

        drop = DecomposeReview(selected_reframings=(0,), constraint_changes=(ConstraintChange(1),))
        assert not isinstance(await service.submit_review(record.id, drop), ServiceFailure)
        await container.runs.wait(record.id)
        explore = last_brief(model, "explore")
    block = explore.split("HARD CONSTRAINTS", 1)[1].split("\n\n", 1)[0]
    assert "- no overtime (the person's)" in block and "- no new beds (frame)" in block
    assert "use overtime" not in block
    assert (
        "SUCCESS CRITERIA (how the answer will be judged):\n- median wait under 30 minutes within 6 months" in explore
    )
