"""The offline model speaks the agent's typed tool protocol: every call it makes in a full session
parses against the agent's input model for that tool, and no call comes back INVALID_INPUT."""

from __future__ import annotations

import pytest
from support.offline_session import run_session

from forge.agent.tool_registry import ALL_TOOLS
from forge.core.llm.messages import ModelRequest, ModelResponse, ToolCall
from forge.offline.offline_model import OfflineModel
from forge.research.local_corpus import LocalCorpusResearch


class RecordingOfflineModel(OfflineModel):
    """The offline model, keeping every tool call it answered with."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[ToolCall] = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = await super().complete(request)
        self.calls += [p for p in response.message.parts if isinstance(p, ToolCall)]
        return response


@pytest.mark.parametrize(
    "problem",
    [
        "How can our team make decisions faster without losing buy-in?",
        "如何在不增加人手的情况下缩短医院急诊的等待时间？",
    ],
)
async def test_every_offline_tool_call_parses_against_the_agents_input_model(problem: str) -> None:
    model = RecordingOfflineModel()
    run = await run_session(problem, model, LocalCorpusResearch.from_directory())
    assert run.document and model.calls
    for call in model.calls:
        ALL_TOOLS[call.name].input_model.model_validate(dict(call.arguments))
