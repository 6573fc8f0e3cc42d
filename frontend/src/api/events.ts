/**
 * Session events as the API documents them: one discriminated union on `type`, taken from the
 * generated OpenAPI types (the `/events` page and the SSE stream carry the same objects).
 */
import type { Schemas } from "./client";

export type SessionEvent = Schemas["EventPage"]["events"][number];
export type EventType = SessionEvent["type"];
export type EventOf<T extends EventType> = Extract<SessionEvent, { type: T }>;
export type PayloadOf<T extends EventType> = EventOf<T>["data"];

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

/** Builds a typed event from one SSE frame; null for frames that are not session events. */
export function eventFromFrame(frame: { id: string | null; event: string; data: string }): SessionEvent | null {
  if (frame.id === null || !/^\d+$/.test(frame.id)) return null;
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return null;
  }
  return { id: Number(frame.id), type: frame.event, data, created_at: "" } as SessionEvent;
}
