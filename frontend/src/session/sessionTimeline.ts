/**
 * The session as the screen shows it, folded from the event log — pure, so a reload (replay from
 * the API) and a live stream produce the same view.
 *
 * Invariants:
 *   - Event ids are strictly increasing per session; an event whose id is not above the last one
 *     applied is ignored. That is what makes a reconnect with Last-Event-ID free of duplicates.
 *   - Consecutive `agent_text` events (streamed deltas) merge into one text block.
 *   - A review is pending from its review event until the next `user_input` event.
 */
import type { EventOf, PayloadOf, ReviewEvent, SessionEvent } from "../api/events";
import { isReviewEvent } from "../api/events";

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
  | { kind: "review"; id: number; reviewType: ReviewEvent["type"] };

export type ClaimView = PayloadOf<"review_claims">["claims"][number];

export type TurnState = "idle" | "running" | "awaiting_input" | "finished" | "failed";

export interface SessionTimeline {
  readonly lastEventId: number;
  readonly eventCount: number;
  readonly phase: PhaseName | null;
  readonly round: number;
  /** Phases reached so far, in order, for the timeline (a phase may repeat across rounds). */
  readonly phasesReached: readonly PhaseName[];
  readonly activity: readonly ActivityItem[];
  readonly pendingReview: ReviewEvent | null;
  readonly lastReviews: Partial<Record<ReviewEvent["type"], ReviewEvent>>;
  /** The latest view of every claim seen in a claims or verdicts review, by claim id. */
  readonly claimsById: Readonly<Record<string, ClaimView>>;
  readonly document: string | null;
  readonly usage: PayloadOf<"context_usage"> | null;
  readonly turn: TurnState;
  readonly lastError: { code: string; message: string; recoverable: boolean } | null;
}

export const EMPTY_TIMELINE: SessionTimeline = {
  lastEventId: 0,
  eventCount: 0,
  phase: null,
  round: 0,
  phasesReached: [],
  activity: [],
  pendingReview: null,
  lastReviews: {},
  claimsById: {},
  document: null,
  usage: null,
  turn: "idle",
  lastError: null,
};

export function applyEvents(timeline: SessionTimeline, events: readonly SessionEvent[]): SessionTimeline {
  return events.reduce(applyEvent, timeline);
}

export function applyEvent(timeline: SessionTimeline, event: SessionEvent): SessionTimeline {
  if (event.id <= timeline.lastEventId) return timeline;
  const next = { ...timeline, lastEventId: event.id, eventCount: timeline.eventCount + 1 };
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
      return { ...t, turn: "running", activity: appendText(t.activity, event.id, event.data) };
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
      return { ...t, turn: turnAfterDone(t, event.data) };
    default:
      return t;
  }
}

function applyPhaseChange(t: SessionTimeline, event: EventOf<"phase_change">): SessionTimeline {
  const phase = event.data.phase as PhaseName;
  return withItem(
    { ...t, phase, round: event.data.round, phasesReached: [...t.phasesReached, phase], turn: "running", lastError: null },
    { kind: "phase", id: event.id, phase, round: event.data.round },
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

function appendText(activity: readonly ActivityItem[], id: number, text: string): ActivityItem[] {
  const last = activity[activity.length - 1];
  if (last?.kind === "text") return [...activity.slice(0, -1), { kind: "text", id: last.id, text: last.text + text }];
  return [...activity, { kind: "text", id, text }];
}
