"""Collecting one run of the agent loop: its committed steps, its live events, the conversation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from forge.agent.call_model import Live
from forge.agent.runner import AgentRunner, Step, ToolExecuted
from forge.agent.tool_context import ToolContext
from forge.core.llm.messages import Message
from forge.core.session.events import SessionEvent


@dataclass
class RunRecord:
    messages: list[Message]
    steps: list[Step] = field(default_factory=list)
    live: list[SessionEvent] = field(default_factory=list)

    @property
    def events(self) -> list[SessionEvent]:
        """The committed events of every step, in order (what the event log would hold)."""
        return [e for step in self.steps for e in step.events]

    @property
    def tool_calls(self) -> list[ToolExecuted]:
        return [t for step in self.steps for t in step.tool_calls]


def apply_step(messages: Sequence[Message], step: Step) -> list[Message]:
    """The stored conversation after committing `step` (what the repository would hold)."""
    base = list(step.replaced_history) if step.replaced_history is not None else list(messages)
    return [*base, *step.appended]


async def record_run(runner: AgentRunner, ctx: ToolContext, history: Sequence[Message]) -> RunRecord:
    record = RunRecord(list(history))
    async for out in runner.run(ctx, list(history)):
        if isinstance(out, Live):
            record.live.append(out.event)
        else:
            record.steps.append(out)
            record.messages = apply_step(record.messages, out)
    return record
