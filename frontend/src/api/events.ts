/**
 * Session events as the API documents them, taken from the generated OpenAPI types.
 *
 * Invariants:
 *   - A STORED event (`SessionEvent`) has an id: it is in the log (`GET /events`) and arrives on
 *     the SSE stream with an `id:` line. Ids increase strictly per session.
 *   - A LIVE event (`LiveEvent`: a piece of the reply being written, a discarded draft, engine
 *     progress) arrives on
 *     the stream WITHOUT an `id:` line: never stored, never replayed, never moves the cursor.
 *   - An `error` frame without an id is the server ending the stream (`StreamClosed`): shutdown,
 *     session deleted, events unreadable. It is not a session event either.
 */
import type { Schemas } from "./client";
import { i18n } from "../i18n/i18n";

type EventOut = Schemas["SessionEventOut"];

export type SessionEvent = Extract<EventOut, { id: number }>;
export type EventType = SessionEvent["type"];
export type EventOf<T extends EventType> = Extract<SessionEvent, { type: T }>;
export type PayloadOf<T extends EventType> = EventOf<T>["data"];

export type LiveEvent = Exclude<EventOut, { id: number }>;
export type LiveEventType = LiveEvent["type"];

/** Every live type, checked both ways against the generated union. */
const LIVE_TYPES: { readonly [T in LiveEventType]: true } = {
  agent_text_delta: true,
  agent_text_discarded: true,
  engine_progress: true,
};

export type ErrorCode = PayloadOf<"error">["code"];

/** The server ended the stream and said why (an `error` frame without an id). */
export interface StreamClosed {
  readonly code: ErrorCode | (string & {});
  readonly message: string;
  readonly recoverable: boolean;
}

/** What one SSE frame carries, once read. */
export type StreamItem =
  | { readonly kind: "stored"; readonly event: SessionEvent }
  | { readonly kind: "live"; readonly event: LiveEvent }
  | { readonly kind: "closed"; readonly closed: StreamClosed };

export const REVIEW_EVENT_TYPES = [
  "review_decompose",
  "review_explore",
  "review_claims",
  "review_verdicts",
  "review_build",
] as const satisfies readonly EventType[];
export type ReviewEventType = (typeof REVIEW_EVENT_TYPES)[number];
export type ReviewEvent = EventOf<ReviewEventType>;

export function isReviewEvent(event: SessionEvent): event is ReviewEvent {
  return (REVIEW_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** A log page's entry is a stored event (the page's schema shares the union with live events). */
export function isStoredEvent(event: EventOut): event is SessionEvent {
  return "id" in event && typeof event.id === "number";
}

/**
 * Reads one SSE frame: a stored event (it has a numeric id), a live event or the server's closing
 * `error` (no id), or null for anything else (unknown types, malformed JSON).
 */
export function itemFromFrame(frame: { id: string | null; event: string; data: string }): StreamItem | null {
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return null;
  }
  if (frame.id !== null) {
    if (!/^\d+$/.test(frame.id)) return null;
    const event = { id: Number(frame.id), type: frame.event, data, created_at: "" } as SessionEvent;
    return { kind: "stored", event };
  }
  if (Object.hasOwn(LIVE_TYPES, frame.event)) return { kind: "live", event: { type: frame.event, data } as LiveEvent };
  if (frame.event === "error" && data && typeof data === "object") {
    const d = data as { code?: unknown; message?: unknown; recoverable?: unknown };
    return {
      kind: "closed",
      closed: {
        code: typeof d.code === "string" ? d.code : "STREAM_CLOSED",
        message: typeof d.message === "string" ? d.message : i18n.t("apiError.streamEnded"),
        recoverable: d.recoverable === true,
      },
    };
  }
  return null;
}
