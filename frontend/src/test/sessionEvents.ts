/**
 * Test-only builders for session events, shaped as the API sends them. Review payloads come from
 * a recorded offline session (src/test/fixtures/offline-session-events.json) so they stay honest.
 */
import type { EventOf, EventType, SessionEvent } from "../api/events";
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

/** An SSE body as the server writes it. */
export function sseText(events: readonly SessionEvent[]): string {
  return events.map((e) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`).join("");
}
