"""Pure mappings between ORM rows / JSON columns and domain records.

Invariants:
    - No ORM object leaves the db package: repositories return what these functions build.
    - `decode_message(encode_message(m)) == m`; every message part is stored with a "kind"
      discriminator ("text" / "tool_call" / "tool_result").
    - `SessionRecord.current_phase` is stored as its ordinal (1..6), as the spec's schema says.
    - Event payloads and tool inputs/outputs are stored as their JSON encoding (`encode_value`),
      and that encoding is what comes back.
"""

from __future__ import annotations

from typing import Any

from forge.core.accounts.users import UserId
from forge.core.domain_types import EventSeq, Phase, SessionId, SessionStatus, ToolCallId
from forge.core.llm.messages import Message, MessagePart, ProviderPart, Role, TextPart, ToolCall, ToolResult
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.position import derive_session_position
from forge.core.session.record import RunLease, SessionRecord, StoredEvent, ToolCallEntry
from forge.core.session.records import ResearchHit
from forge.core.session.spend import total_spend
from forge.core.session.state_codec import encode_value
from forge.db.tables import EventRow, SessionRow, ToolCallRow


def position_columns(state: ForgeState, *, cancelled: bool) -> dict[str, Any]:
    """The sessions columns that project the state: status, phase, round, awaited review, spend."""
    position = derive_session_position(state, cancelled=cancelled)
    spent = total_spend(state.spend_by_phase)
    return {
        "status": position.status.value,
        "current_phase": position.phase.ordinal,
        "current_round": position.round,
        "awaiting_input_type": position.awaiting.value if position.awaiting else None,
        "total_tokens_used": spent.tokens,
        "total_cost_usd": spent.cost_usd,
    }


def new_session_columns(record: SessionRecord, state: ForgeState) -> dict[str, Any]:
    """Every column of a new sessions row but the state itself."""
    return {
        "id": record.id,
        "problem": record.problem,
        "created_at": record.created_at,
        "resolved_at": None,
        "model_label": record.model_label,
        "cancelled": False,
        "version": 0,
        "last_event_seq": 0,
        "message_count": 0,
        "tool_call_count": 0,
        "run_owner": None,
        "run_lease_expires_at": None,
        "owner_id": record.owner_id,
        **position_columns(state, cancelled=False),
    }


def session_record(row: SessionRow | Any) -> SessionRecord:
    """From an ORM row or a Core row with the same column names."""
    return SessionRecord(
        id=SessionId(row.id),
        problem=row.problem,
        status=SessionStatus(row.status),
        current_phase=Phase.from_ordinal(row.current_phase),
        current_round=row.current_round,
        created_at=row.created_at,
        model_label=row.model_label,
        total_tokens_used=row.total_tokens_used,
        total_cost_usd=row.total_cost_usd,
        resolved_at=row.resolved_at,
        awaiting_input_type=row.awaiting_input_type,
        cancelled=row.cancelled,
        version=row.version,
        run_lease=_lease(row),
        owner_id=UserId(row.owner_id),
    )


def _lease(row: SessionRow | Any) -> RunLease | None:
    if row.run_owner is None or row.run_lease_expires_at is None:
        return None
    return RunLease(row.run_owner, row.run_lease_expires_at)


def stored_event(row: EventRow | Any) -> StoredEvent:
    """From an ORM row or a Core row with the same column names."""
    return StoredEvent(seq=EventSeq(row.seq), type=EventType(row.type), data=row.data, created_at=row.created_at)


def tool_call_entry(row: ToolCallRow) -> ToolCallEntry:
    return ToolCallEntry(
        tool_name=row.tool_name,
        tool_input=row.tool_input,
        tool_output=row.tool_output,
        error_code=row.error_code,
        phase=Phase(row.phase),
        created_at=row.created_at,
    )


def _encode_part(part: MessagePart) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"kind": "text", "text": part.text}
    if isinstance(part, ToolCall):
        return {
            "kind": "tool_call",
            "id": part.id,
            "name": part.name,
            "arguments": encode_value(dict(part.arguments)),
            "parse_error": part.parse_error,
        }
    if isinstance(part, ProviderPart):
        return {"kind": "provider", "provider": part.provider, "payload": encode_value(dict(part.payload))}
    encoded = {"kind": "tool_result", "call_id": part.call_id, "content": part.content, "is_error": part.is_error}
    if part.citable:
        encoded["citable"] = [[h.source, h.title, h.snippet] for h in part.citable]
    return encoded


def _decode_part(raw: dict[str, Any]) -> MessagePart:
    kind = raw["kind"]
    if kind == "text":
        return TextPart(raw["text"])
    if kind == "tool_call":
        return ToolCall(ToolCallId(raw["id"]), raw["name"], dict(raw["arguments"]), raw.get("parse_error"))
    if kind == "tool_result":
        cited = tuple(ResearchHit(*hit) for hit in raw.get("citable") or ())
        return ToolResult(ToolCallId(raw["call_id"]), raw["content"], bool(raw.get("is_error", False)), cited)
    if kind == "provider":
        return ProviderPart(raw["provider"], dict(raw["payload"]))
    raise ValueError(f"Unknown message part kind {kind!r}.")


def encode_message(message: Message) -> dict[str, Any]:
    return {"role": message.role.value, "parts": [_encode_part(p) for p in message.parts]}


def decode_message(raw: dict[str, Any]) -> Message:
    return Message(Role(raw["role"]), tuple(_decode_part(p) for p in raw["parts"]))
