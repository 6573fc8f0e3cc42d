"""Dispatching one tool call: phase check, input validation, handler, and never a crash.

Invariants:
    - Every outcome is a ToolOutcome: unknown tool, tool not offered in this phase, malformed JSON
      arguments, junk string values (no letter or digit: `core.llm.junk_arguments`), schema
      violations, rule violations and unexpected handler exceptions all come
      back as a violation the loop returns to the model as a tool error.
    - Every successful result carries `progress`: one line of the phase's progress and, once the
      phase's work gate passes, what to do next (stop and summarise), so the model never has to
      call get_session_status to know where it stands.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from forge.agent.phases.registry import phase_definition
from forge.agent.tool_context import ToolContext, ToolOutcome
from forge.agent.tool_registry import ALL_TOOLS, tool_names_for_phase
from forge.core.llm.invalid_calls import escaped_quote_hint
from forge.core.llm.junk_arguments import junk_value
from forge.core.llm.messages import ToolCall
from forge.core.phases.phase_progress import phase_progress
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState

log = logging.getLogger(__name__)


def _field_schema(schema: Mapping[str, Any], loc: tuple[int | str, ...]) -> Mapping[str, Any]:
    """The JSON schema of the field at `loc` (pydantic's `$ref`s into `$defs` followed; {} if unknown)."""
    defs = schema.get("$defs", {})

    def resolved(node: Any) -> Mapping[str, Any]:
        ref = node.get("$ref", "") if isinstance(node, Mapping) else ""
        return defs.get(ref.rsplit("/", 1)[-1], {}) if ref else (node if isinstance(node, Mapping) else {})

    node = resolved(schema)
    for part in loc:
        node = resolved(node.get("items") if isinstance(part, int) else node.get("properties", {}).get(part))
    return node


def _validation_message(error: ValidationError, schema: Mapping[str, Any]) -> str:
    """Each error as `path: what is wrong`, a missing field with its allowed values when it has a list."""
    parts = []
    for e in error.errors()[:5]:
        allowed = _field_schema(schema, e["loc"]).get("enum") if e["type"] == "missing" else None
        hint = f" (one of: {', '.join(map(str, allowed))})" if allowed else ""
        parts.append(f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}{hint}")
    return "Invalid input — " + "; ".join(parts)


def progress_line(state: ForgeState) -> str:
    line = phase_progress(state)
    if phase_definition(state.current_phase).work_gate(state) is None:
        return f"{line}. The phase's work is complete: stop calling tools and write your summary for the person."
    return line


async def dispatch_tool_call(ctx: ToolContext, call: ToolCall) -> ToolOutcome:
    outcome = await _dispatch(ctx, call)
    if outcome.violation or outcome.pauses:
        return outcome
    return replace(outcome, payload={**outcome.payload, "progress": progress_line(ctx.state)})


async def _dispatch(ctx: ToolContext, call: ToolCall) -> ToolOutcome:
    spec = ALL_TOOLS.get(call.name)
    if spec is None:
        return ToolOutcome.failed(RuleViolation(ErrorCode.UNKNOWN_TOOL, f"There is no tool named '{call.name}'."))
    allowed = tool_names_for_phase(ctx.state.current_phase)
    if call.name not in allowed:
        return ToolOutcome.failed(
            RuleViolation(
                ErrorCode.TOOL_NOT_IN_PHASE,
                f"'{call.name}' is not available in {ctx.state.current_phase.value.upper()}; available: {', '.join(allowed)}.",
            )
        )
    if call.parse_error:
        return ToolOutcome.failed(
            RuleViolation(
                ErrorCode.INVALID_INPUT, f"The arguments were not valid JSON ({call.parse_error}); resend the call."
            )
        )
    junk = junk_value(dict(call.arguments))
    if junk is not None:
        return ToolOutcome.failed(
            RuleViolation(
                ErrorCode.INVALID_INPUT,
                f"{junk} has no letter or digit: it looks like a fragment of broken JSON, not a value. "
                "Resend the call with real values.",
            )
        )
    try:
        args = spec.input_model.model_validate(dict(call.arguments))
    except ValidationError as error:
        message = _validation_message(error, spec.input_model.model_json_schema()) + "."
        message += escaped_quote_hint(dict(call.arguments))
        return ToolOutcome.failed(RuleViolation(ErrorCode.INVALID_INPUT, message))
    try:
        return await spec.handler(ctx, args)
    except Exception as error:  # a tool must never crash the loop
        log.exception("tool %s failed", call.name)
        return ToolOutcome.failed(RuleViolation(ErrorCode.TOOL_FAILED, f"{call.name} failed: {error}"))
