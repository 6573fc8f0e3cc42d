"""What the agent loop tells the model, and the person, when a weak model cannot do a phase."""

from __future__ import annotations

from forge.core.rules.verdicts import RuleViolation

PROSE_ONLY = (
    "You answered in prose and called no tool. Do the phase's work by calling its tools (tool calls, not text)."
)


def no_tool_message(replies: int, violation: RuleViolation) -> str:
    return (
        f"The model answered in prose and called no tool in {replies} replies, so the phase could not progress "
        f"({violation.code.value}: {violation.message}). Choose a model whose chat template supports tool calls "
        "(with llama.cpp, start llama-server with --jinja; with llama-cpp-python, --chat_format "
        "chatml-function-calling), or check `forge doctor`."
    )
