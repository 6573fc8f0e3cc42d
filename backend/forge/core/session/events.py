"""Typed events of a session: what the agent loop yields, the log stores and SSE carries.

Invariants:
    - The 15 event types of the spec plus `heartbeat`, the engine's `engine_stage`, VERIFY's
      `verify_injection_detected` and `research_warning`; each event knows its wire name and its JSON
      payload (`data`), which is what is persisted in the event log.
    - Two more types are LIVE only (`LIVE_EVENT_TYPES`): `agent_text_delta` (the model's reply as it
      streams, coalesced) and `agent_text_discarded` (the draft so far is abandoned: the stream was
      cut and the call restarts). They are never stored and carry no id; the step's persisted
      `agent_text` supersedes the draft, so the log holds each reply's text exactly once.
    - `saga_finding`, `saga_directive` and `saga_checkpoint` are the supervisor's (SAGA) stored record.
    - Review events carry the full review payload so a client that reconnects can render the
      review from the log alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from forge.core.curation.curate_conversation import CurationSummary, curation_payload
from forge.core.domain_types import EngineStage, Phase, ReviewType
from forge.core.saga.records import CheckpointAudit, Directive, SupervisorFinding
from forge.core.session.records import ResearchHit
from forge.core.session.spend import PhaseSpend


class EventType(str, Enum):
    AGENT_TEXT = "agent_text"
    TOOL_CALL = "tool_call"
    TOOL_ERROR = "tool_error"
    TOOL_RESULT = "tool_result"
    REVIEW_DECOMPOSE = "review_decompose"
    REVIEW_EXPLORE = "review_explore"
    REVIEW_CLAIMS = "review_claims"
    REVIEW_VERDICTS = "review_verdicts"
    REVIEW_BUILD = "review_build"
    KNOWLEDGE_DOCUMENT = "knowledge_document"
    PHASE_CHANGE = "phase_change"
    CONTEXT_USAGE = "context_usage"
    DONE = "done"
    ERROR = "error"
    USER_INPUT = "user_input"
    HEARTBEAT = "heartbeat"
    AGENT_TEXT_DELTA = "agent_text_delta"
    AGENT_TEXT_DISCARDED = "agent_text_discarded"
    ENGINE_PROGRESS = "engine_progress"
    ENGINE_STAGE = "engine_stage"
    SAGA_FINDING = "saga_finding"
    SAGA_DIRECTIVE = "saga_directive"
    SAGA_CHECKPOINT = "saga_checkpoint"
    VERIFY_INJECTION_DETECTED = "verify_injection_detected"
    RESEARCH_WARNING = "research_warning"


LIVE_EVENT_TYPES = frozenset({EventType.AGENT_TEXT_DELTA, EventType.AGENT_TEXT_DISCARDED, EventType.ENGINE_PROGRESS})


REVIEW_EVENT: dict[ReviewType, EventType] = {
    ReviewType.DECOMPOSE_REVIEW: EventType.REVIEW_DECOMPOSE,
    ReviewType.EXPLORE_REVIEW: EventType.REVIEW_EXPLORE,
    ReviewType.CLAIMS_REVIEW: EventType.REVIEW_CLAIMS,
    ReviewType.VERDICTS: EventType.REVIEW_VERDICTS,
    ReviewType.BUILD_DECISION: EventType.REVIEW_BUILD,
}


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """One event: its type and JSON payload. `data` is the wire payload, built by the factories."""

    type: EventType
    data: Any


def agent_text(text: str) -> SessionEvent:
    return SessionEvent(EventType.AGENT_TEXT, text)


def agent_text_delta(text: str) -> SessionEvent:
    return SessionEvent(EventType.AGENT_TEXT_DELTA, {"text": text})


def agent_text_discarded(reason: str) -> SessionEvent:
    return SessionEvent(EventType.AGENT_TEXT_DISCARDED, {"reason": reason})


def engine_progress(stage: EngineStage, done: int, total: int, failed: int) -> SessionEvent:
    """Live: how far an engine stage is (calls done of total); never stored. A spelling that is not an
    EngineStage fails here, not in a client."""
    return SessionEvent(
        EventType.ENGINE_PROGRESS, {"stage": EngineStage(stage).value, "done": done, "total": total, "failed": failed}
    )


def engine_stage(stage: EngineStage, summary: str, counts: dict[str, int]) -> SessionEvent:
    """Stored: an engine stage finished (e.g. the frame, BISO) with what it produced."""
    return SessionEvent(
        EventType.ENGINE_STAGE, {"stage": EngineStage(stage).value, "summary": summary, "counts": counts}
    )


def saga_finding(f: SupervisorFinding) -> SessionEvent:
    """Stored: the supervisor found an anomaly at a checkpoint (the statistic, its threshold, who)."""
    x = f.finding
    return SessionEvent(
        EventType.SAGA_FINDING,
        {
            "id": f.id,
            "checkpoint": f.checkpoint.value,
            "round": f.round,
            "kind": x.kind.value,
            "layer": x.layer,
            "severity": x.severity.value,
            "statistic": x.statistic,
            "threshold": x.threshold,
            "p_value": x.p_value,
            "hypothesis_ids": list(x.hypothesis_ids),
            "dimensions": list(x.dimensions),
            "message": x.message,
            "suggested_constraint": x.suggested_constraint,
        },
    )


def saga_directive(d: Directive) -> SessionEvent:
    """Stored: a directive the fast path took, with the finding that caused it."""
    return SessionEvent(
        EventType.SAGA_DIRECTIVE,
        {
            "id": d.id,
            "kind": d.kind.value,
            "finding_id": d.finding_id,
            "message": d.message,
            "weights": dict(d.weights),
            "quota_changes": dict(d.quota_changes),
            "hypothesis_ids": list(d.hypothesis_ids),
            "constraint": d.constraint,
            "challenge": d.challenge,
        },
    )


def saga_checkpoint(audit: CheckpointAudit) -> SessionEvent:
    """Stored: an Answer Engine checkpoint (CP-1..7) ran, with what it found."""
    return SessionEvent(
        EventType.SAGA_CHECKPOINT,
        {
            "checkpoint": audit.checkpoint.value,
            "round": audit.round,
            "phase": audit.phase,
            "summary": audit.summary,
            "passed": audit.passed,
            "finding_ids": list(audit.finding_ids),
            "directive_ids": list(audit.directive_ids),
            "fast_events": [e.value for e in audit.fast_events],
        },
    )


def verify_injection_detected(claim_id: str, claim_index: int, findings: Sequence[Any]) -> SessionEvent:
    """Stored: text that reached the verifier for a claim looks like a prompt injection (000 §4.3.3);
    `findings` are `InjectionFinding`s (source, pattern, excerpt). The claim's verdict is escalated."""
    items = [{"source": f.source, "pattern": f.pattern, "excerpt": f.excerpt} for f in findings]
    return SessionEvent(
        EventType.VERIFY_INJECTION_DETECTED, {"claim_id": claim_id, "claim_index": claim_index, "findings": items}
    )


def research_warning(provider: str, message: str) -> SessionEvent:
    """Stored: research did not go as configured (a search API failed and the local corpus answered)."""
    return SessionEvent(EventType.RESEARCH_WARNING, {"provider": provider, "message": message})


def tool_call(tool: str, input_preview: str) -> SessionEvent:
    return SessionEvent(EventType.TOOL_CALL, {"tool": tool, "input_preview": input_preview})


def tool_error(tool: str, error_code: str, message: str) -> SessionEvent:
    return SessionEvent(EventType.TOOL_ERROR, {"tool": tool, "error_code": error_code, "message": message})


def tool_result(tool: str, summary: str, sources: Sequence[ResearchHit] = ()) -> SessionEvent:
    """`sources`: what a research call found (source and title; snippets stay in the research log)."""
    refs = [{"source": hit.source, "title": hit.title} for hit in sources]
    return SessionEvent(EventType.TOOL_RESULT, {"tool": tool, "summary": summary, "sources": refs})


def phase_change(phase: Phase, round_number: int, *, resumed: bool = False) -> SessionEvent:
    """`resumed`: the phase's run restarts after an interruption (a crash, an error) — same phase."""
    return SessionEvent(EventType.PHASE_CHANGE, {"phase": phase.value, "round": round_number, "resumed": resumed})


@dataclass(frozen=True, slots=True)
class SpendReport:
    """What a model call cost, and where its phase and session stand afterwards."""

    phase: Phase
    phase_spend: PhaseSpend
    session_spend: PhaseSpend
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0


def context_usage(
    tokens_used: int,
    tokens_limit: int,
    model: str,
    cost_usd: float = 0.0,
    spend: SpendReport | None = None,
    curation: CurationSummary | None = None,
    *,
    price_known: bool = True,
) -> SessionEvent:
    """`cost_usd` is the call's cost; `spend` adds the phase's and the session's running totals;
    `curation` what the curator put into the call's context (curated vs available tokens, provenance).
    `price_known` is False for a model with no known price: its cost is unknown, not $0 (the UI warns)."""
    remaining = max(0, tokens_limit - tokens_used)
    percentage = round(100.0 * tokens_used / tokens_limit, 2) if tokens_limit else 0.0
    data: dict[str, Any] = {
        "tokens_used": tokens_used,
        "tokens_limit": tokens_limit,
        "tokens_remaining": remaining,
        "usage_percentage": percentage,
        "model": model,
        "cost_usd": round(cost_usd, 6),
    }
    if spend is not None:
        data |= {
            "phase": spend.phase.value,
            "phase_cost_usd": round(spend.phase_spend.cost_usd, 6),
            "phase_tokens": spend.phase_spend.tokens,
            "session_cost_usd": round(spend.session_spend.cost_usd, 6),
            "session_tokens": spend.session_spend.tokens,
            "cache_read_tokens": spend.cache_read_tokens,
            "cache_creation_tokens": spend.cache_creation_tokens,
        }
    data["curation"] = curation_payload(curation) if curation is not None else None
    data["price_known"] = price_known
    return SessionEvent(EventType.CONTEXT_USAGE, data)


def done(*, error: bool, awaiting_input: bool) -> SessionEvent:
    return SessionEvent(EventType.DONE, {"error": error, "awaiting_input": awaiting_input})


def error(code: str, message: str, *, recoverable: bool, severity: str = "error") -> SessionEvent:
    return SessionEvent(
        EventType.ERROR, {"code": code, "message": message, "severity": severity, "recoverable": recoverable}
    )


def knowledge_document(markdown: str) -> SessionEvent:
    return SessionEvent(EventType.KNOWLEDGE_DOCUMENT, {"markdown": markdown})


def user_input(review: ReviewType, summary: str) -> SessionEvent:
    return SessionEvent(EventType.USER_INPUT, {"type": review.value, "summary": summary})


def review(review_type: ReviewType, payload: dict[str, Any]) -> SessionEvent:
    return SessionEvent(REVIEW_EVENT[review_type], payload)
