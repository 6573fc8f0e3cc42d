"""What the agent loop tells the model, and the person, when a reply cannot be used as it came: too
long, cut off inside a call, or with no tool call when a weak model cannot do a phase."""

from __future__ import annotations

from forge.core.llm.messages import Message, TextPart
from forge.core.rules.verdicts import ErrorCode, RuleViolation

MAX_REPLY_CHARS = 24_000

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


def cap_reply(message: Message, limit: int = MAX_REPLY_CHARS) -> Message:
    """The message with its text cut to `limit` characters (marked), tool calls untouched."""
    text = message.text
    if len(text) <= limit:
        return message
    marker = f"\n[… {len(text) - limit} more characters of this reply were cut]"
    parts = tuple(p for p in message.parts if not isinstance(p, TextPart))
    return Message(message.role, (TextPart(text[:limit] + marker), *parts))


def truncated_call(name: str, max_tokens: int) -> RuleViolation:
    return RuleViolation(
        ErrorCode.INVALID_INPUT,
        f"Your reply hit max_tokens ({max_tokens}) while writing the arguments of '{name}', so they "
        "were cut off. Resend the call with shorter arguments (split long text across several calls).",
    )
