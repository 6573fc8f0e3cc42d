/**
 * The session as the screen shows it, folded from the event log — pure, so a reload (replay from
 * the API) and a live stream produce the same view.
 *
 * Invariants:
 *   - Event ids are strictly increasing per session; an event whose id is not above the last one
 *     applied is ignored. That is what makes a reconnect with Last-Event-ID free of duplicates.
 *   - Each stored `agent_text` is one whole reply of a model step: one text block each.
 *   - The reply being written is a `draft`, built from live `agent_text_delta` events (no id, never
 *     in the log). It is not activity: the stored `agent_text` that commits the step supersedes it
 *     (the text is never shown twice); `agent_text_discarded`, a reconnect (`dropDraft`) or an event
 *     that ends the step without text (error, done, a phase change, a review...) drops it. Live
 *     events never touch `lastEventId`, `eventCount` or anything the log alone decides.
 *   - A `phase_change` with `resumed: true` restarts the same phase after an interruption: it is a
 *     "resumed" note in the activity, not a new phase (`phasesReached` does not grow).
 *   - A review is pending from its review event until the next `user_input` event.
 *   - `engineProgress` (live `engine_progress`: model calls done of total in an engine stage such as
 *     BISO) shows a bar while the stage works; the stored `engine_stage` that reports the stage's
 *     result, a phase change or a `done` clears it.
 *   - SAGA: each stored `saga_checkpoint` (CP-1..7) is an activity entry and a mark on its phase
 *     (`checkpoints`); `saga_finding` / `saga_directive` only count (`supervisorEvents`), so the
 *     supervisor panel knows when to read again — the panel lists them, the activity does not.
 */
import type { EventOf, EventType, LiveEvent, PayloadOf, ReviewEvent, SessionEvent } from "../api/events";
import { isReviewEvent } from "../api/events";
import type { Schemas } from "../api/client";
import { i18n } from "../i18n/i18n";

export const PHASES = ["decompose", "explore", "synthesize", "validate", "build", "crystallize"] as const;
export type PhaseName = (typeof PHASES)[number];

export type ActivityItem =
  | { kind: "text"; id: number; text: string }
  | { kind: "tool_call"; id: number; tool: string; preview: string }
  | { kind: "tool_result"; id: number; event: EventOf<"tool_result"> }
  | { kind: "tool_error"; id: number; tool: string; code: string; message: string }
  | { kind: "error"; id: number; code: string; message: string; recoverable: boolean }
  | { kind: "user_input"; id: number; reviewType: string; summary: string }
  | { kind: "phase"; id: number; phase: PhaseName; round: number }
  | { kind: "resumed"; id: number; phase: PhaseName; round: number }
  | { kind: "review"; id: number; reviewType: ReviewEvent["type"] }
  | { kind: "engine_stage"; id: number; stage: Schemas["EngineStage"]; summary: string }
  | { kind: "checkpoint"; id: number; checkpoint: CheckpointMark }
  | { kind: "warning"; id: number; title: string; text: string };

/** A SAGA checkpoint's audit as the timeline shows it. */
export type CheckpointMark = Pick<PayloadOf<"saga_checkpoint">, "checkpoint" | "phase" | "round" | "summary" | "passed"> & {
  readonly findings: number;
};

export type EngineProgress = Extract<LiveEvent, { type: "engine_progress" }>["data"];

export type ClaimView = PayloadOf<"review_claims">["claims"][number];

export type TurnState = "idle" | "running" | "awaiting_input" | "finished" | "failed";

export interface SessionTimeline {
  readonly lastEventId: number;
  readonly eventCount: number;
  readonly phase: PhaseName | null;
  readonly round: number;
  /** Phases reached so far, in order (a phase repeats across rounds, never for a resumed run). */
  readonly phasesReached: readonly PhaseName[];
  readonly activity: readonly ActivityItem[];
  /** The reply the model is writing right now (live only), or null. */
  readonly draft: string | null;
  readonly pendingReview: ReviewEvent | null;
  readonly lastReviews: Partial<Record<ReviewEvent["type"], ReviewEvent>>;
  /** The latest view of every claim seen in a claims or verdicts review, by claim id. */
  readonly claimsById: Readonly<Record<string, ClaimView>>;
  readonly document: string | null;
  readonly usage: PayloadOf<"context_usage"> | null;
  readonly turn: TurnState;
  /** The id of the event that started the current phase (not a resumed run), and when it was
   * stored (ISO; null when the event came from the live stream, whose frames carry no time). */
  readonly phaseEventId: number | null;
  readonly phaseStartedAt: string | null;
  readonly lastError: { code: string; message: string; recoverable: boolean } | null;
  /** The engine stage at work right now (live only), or null. */
  readonly engineProgress: EngineProgress | null;
  /** SAGA checkpoints recorded so far (CP-1..7 per round), in order. */
  readonly checkpoints: readonly CheckpointMark[];
  /** How many supervisor events (findings, directives, checkpoints) were seen: the panel's version. */
  readonly supervisorEvents: number;
}

export const EMPTY_TIMELINE: SessionTimeline = {
  lastEventId: 0,
  eventCount: 0,
  phase: null,
  round: 0,
  phasesReached: [],
  activity: [],
  draft: null,
  pendingReview: null,
  lastReviews: {},
  claimsById: {},
  document: null,
  usage: null,
  turn: "idle",
  phaseEventId: null,
  phaseStartedAt: null,
  lastError: null,
  engineProgress: null,
  checkpoints: [],
  supervisorEvents: 0,
};

export function applyEvents(timeline: SessionTimeline, events: readonly SessionEvent[]): SessionTimeline {
  return events.reduce(applyEvent, timeline);
}

/** Stored events during which a reply being written stays on screen (a step commits them before its text). */
const KEEP_DRAFT: ReadonlySet<EventType> = new Set(["heartbeat", "context_usage", "tool_call", "tool_result", "tool_error"]);

export function applyEvent(timeline: SessionTimeline, event: SessionEvent): SessionTimeline {
  if (event.id <= timeline.lastEventId) return timeline;
  const draft = KEEP_DRAFT.has(event.type) ? timeline.draft : null;
  const next = { ...timeline, lastEventId: event.id, eventCount: timeline.eventCount + 1, draft };
  if (event.type === "heartbeat") return { ...next, eventCount: timeline.eventCount };
  if (isReviewEvent(event)) {
    const item: ActivityItem = { kind: "review", id: event.id, reviewType: event.type };
    return {
      ...next,
      pendingReview: event,
      lastReviews: { ...timeline.lastReviews, [event.type]: event },
      claimsById: withClaims(timeline.claimsById, event),
      activity: [...timeline.activity, item],
    };
  }
  return applyOther(next, event);
}

function applyOther(t: SessionTimeline, event: SessionEvent): SessionTimeline {
  switch (event.type) {
    case "agent_text":
      return withItem({ ...t, turn: "running" }, { kind: "text", id: event.id, text: event.data });
    case "tool_call":
      return withItem({ ...t, turn: "running" }, { kind: "tool_call", id: event.id, tool: event.data.tool, preview: event.data.input_preview });
    case "tool_result":
      return withItem(t, { kind: "tool_result", id: event.id, event });
    case "tool_error":
      return withItem(t, { kind: "tool_error", id: event.id, tool: event.data.tool, code: event.data.error_code, message: event.data.message });
    case "phase_change":
      return applyPhaseChange(t, event);
    case "context_usage":
      return { ...t, usage: event.data };
    case "user_input":
      return withItem(
        { ...t, pendingReview: null, turn: "running" },
        { kind: "user_input", id: event.id, reviewType: event.data.type, summary: event.data.summary },
      );
    case "knowledge_document":
      return { ...t, document: event.data.markdown };
    case "error": {
      const lastError = { code: event.data.code, message: event.data.message, recoverable: event.data.recoverable };
      return withItem({ ...t, lastError }, { kind: "error", id: event.id, ...lastError });
    }
    case "done":
      return { ...t, turn: turnAfterDone(t, event.data), engineProgress: null };
    case "engine_stage":
      return withItem(
        { ...t, engineProgress: null },
        { kind: "engine_stage", id: event.id, stage: event.data.stage, summary: event.data.summary },
      );
    case "saga_checkpoint": {
      const { checkpoint, phase, round, summary, passed, finding_ids } = event.data;
      const mark: CheckpointMark = { checkpoint, phase, round, summary, passed, findings: finding_ids.length };
      return withItem(
        { ...t, checkpoints: [...t.checkpoints, mark], supervisorEvents: t.supervisorEvents + 1 },
        { kind: "checkpoint", id: event.id, checkpoint: mark },
      );
    }
    case "saga_finding":
    case "saga_directive":
      return { ...t, supervisorEvents: t.supervisorEvents + 1 };
    case "verify_injection_detected":
      return withItem(t, {
        kind: "warning",
        id: event.id,
        title: i18n.t("timeline.injection", { n: event.data.claim_index + 1 }),
        text: event.data.findings.map((f) => i18n.t("verify.injectionLine", { pattern: f.pattern.replaceAll("_", " "), source: f.source, excerpt: f.excerpt })).join("; "),
      });
    case "research_warning":
      return withItem(t, { kind: "warning", id: event.id, title: i18n.t("timeline.research", { provider: event.data.provider }), text: event.data.message });
    default:
      return t;
  }
}

/** A live event: the draft of the reply being written grows, or is dropped. */
export function applyLiveEvent(timeline: SessionTimeline, event: LiveEvent): SessionTimeline {
  switch (event.type) {
    case "agent_text_delta":
      return event.data.text ? { ...timeline, draft: (timeline.draft ?? "") + event.data.text } : timeline;
    case "agent_text_discarded":
      return dropDraft(timeline);
    case "engine_progress":
      return { ...timeline, engineProgress: event.data };
  }
}

/** Forgets the draft (after a reconnect: its deltas from before the cut are not coming back). */
export function dropDraft(timeline: SessionTimeline): SessionTimeline {
  return timeline.draft === null ? timeline : { ...timeline, draft: null };
}

function applyPhaseChange(t: SessionTimeline, event: EventOf<"phase_change">): SessionTimeline {
  const phase = event.data.phase;
  const { round } = event.data;
  if (event.data.resumed === true)
    return withItem(
      { ...t, phase, round, turn: "running", lastError: null, engineProgress: null },
      { kind: "resumed", id: event.id, phase, round },
    );
  return withItem(
    {
      ...t,
      phase,
      round,
      phasesReached: [...t.phasesReached, phase],
      turn: "running",
      lastError: null,
      engineProgress: null,
      phaseEventId: event.id,
      phaseStartedAt: event.created_at || null,
    },
    { kind: "phase", id: event.id, phase, round },
  );
}

function turnAfterDone(t: SessionTimeline, data: PayloadOf<"done">): TurnState {
  if (data.error) return "failed";
  if (data.awaiting_input) return "awaiting_input";
  return t.document !== null ? "finished" : "idle";
}

function withClaims(byId: Readonly<Record<string, ClaimView>>, event: ReviewEvent): Readonly<Record<string, ClaimView>> {
  if (event.type !== "review_claims" && event.type !== "review_verdicts") return byId;
  const next = { ...byId };
  for (const claim of event.data.claims) next[claim.id] = claim;
  return next;
}

function withItem(t: SessionTimeline, item: ActivityItem): SessionTimeline {
  return { ...t, activity: [...t.activity, item] };
}
