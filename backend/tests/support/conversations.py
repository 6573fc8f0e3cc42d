"""Conversations as a session's model calls see them: briefs with phase markers, tool exchanges on a
few topics, phase summaries (for the curation tests)."""

from __future__ import annotations

import random

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult, user_text
from forge.providers.token_counting import TiktokenCounter

COUNT = TiktokenCounter().count_tokens
DECIDED = "YOUR REVIEWER DECIDED — these are the person's decisions:\n- Rejected: “demand is fixed”."
TOPICS = (
    "emergency queue arrival rate triage nurses waiting time",
    "electric grid peak shaving demand response load factor",
    "honey bee colony foraging recruitment dance",
    "air traffic control slot allocation ground delay",
)


def brief(phase: str, round_: int, body: str, decided: bool) -> Message:
    parts = [f"[forge phase={phase} round={round_}]\nGOAL: {body}", *([DECIDED] if decided else [])]
    parts.append('```json\n{"problem": "' + body + '"}\n```')
    return user_text("\n\n".join(parts))


def exchange(tag: str, topic: str, size: int) -> list[Message]:
    call_id = ToolCallId(f"call-{tag}")
    ask = Message(Role.ASSISTANT, (ToolCall(call_id, "research", {"query": topic}),))
    answer = Message(Role.USER, (ToolResult(call_id, " ".join([topic] * size)),))
    return [ask, answer]


def session(rng: random.Random, phases: int) -> list[Message]:
    names = ["decompose", "explore", "synthesize", "validate", "build"]
    messages = [brief(names[0], 1, "cut emergency waiting without more staff", decided=False)]
    for p in range(phases):
        for k in range(rng.randint(1, 4)):
            messages += exchange(f"{p}-{k}", rng.choice(TOPICS), rng.randint(1, 60))
        messages.append(Message(Role.ASSISTANT, (TextPart("Summary of the phase. " * rng.randint(1, 80)),)))
        messages.append(brief(names[(p + 1) % 5], 1 + (p + 1) // 5, rng.choice(TOPICS), decided=True))
    for k in range(rng.randint(0, 3)):
        messages += exchange(f"now-{k}", rng.choice(TOPICS), rng.randint(1, 30))
    return messages


def marker(messages: list[Message]) -> str:
    return next(m.text.split("\n")[0] for m in reversed(messages) if m.text.startswith("[forge phase="))
