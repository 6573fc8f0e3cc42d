/**
 * Test-only builders for session events, shaped as the API sends them. Review payloads come from
 * a recorded offline session (src/test/fixtures/offline-session-events.json) so they stay honest.
 */
import type { EventOf, EventType, LiveEvent, SessionEvent } from "../api/events";
import recorded from "./fixtures/offline-session-events.json";

export const RECORDED_EVENTS = recorded as unknown as SessionEvent[];

export function recordedOf<T extends EventType>(type: T): EventOf<T> {
  const found = RECORDED_EVENTS.find((e) => e.type === type);
  if (!found) throw new Error(`the recorded session has no ${type} event`);
  return found as EventOf<T>;
}

export function make<T extends EventType>(type: T, id: number, data: EventOf<T>["data"]): EventOf<T> {
  return { id, type, data, created_at: "2026-11-22T10:00:00Z" } as EventOf<T>;
}

/** An SSE body as the server writes it: stored events with their id, live events without. */
export function sseText(events: readonly (SessionEvent | LiveEvent)[]): string {
  return events
    .map((e) => `${"id" in e ? `id: ${e.id}\n` : ""}event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`)
    .join("");
}

export const delta = (text: string): LiveEvent => ({ type: "agent_text_delta", data: { text } });
export const discarded = (reason = "the stream was cut; the call restarts"): LiveEvent => ({ type: "agent_text_discarded", data: { reason } });

/** The `error` frame (no id) the server ends a stream with when it must close it. */
export function closingError(code: "SERVER_SHUTDOWN" | "SESSION_DELETED" | "EVENTS_UNAVAILABLE", message = "closing"): string {
  return `event: error\ndata: ${JSON.stringify({ code, message, recoverable: true, severity: "warning" })}\n\n`;
}
