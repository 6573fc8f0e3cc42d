/**
 * The raw HTTP calls behind the live session: event-log pages, the SSE stream, and the two POSTs
 * that answer a review (by hand or by the autopilot) and stream on from there. SSE responses are
 * read with fetch (EventSource cannot POST or set Last-Event-ID on the first connection).
 *
 * GET /stream only follows; every (re)connection first POSTs /run, which starts the session's run
 * or resumes one whose server died (and changes nothing while the run is live).
 */
import type { UserInput } from "./client";
import { ensureOk, fetchOrExplain, unwrap, api } from "./client";
import { isStoredEvent, type SessionEvent } from "./events";

const base = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
const SSE_HEADERS = { Accept: "text/event-stream" };

/** Every stored event after `after`, following the log's pages (the log holds no live events). */
export async function loadEventLog(sessionId: string, after = 0): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = unwrap(
      await api.GET("/api/v1/sessions/{session_id}/events", {
        params: { path: { session_id: sessionId }, query: { after: cursor, limit: 500 } },
      }),
    );
    events.push(...page.events.filter(isStoredEvent));
    if (!page.has_more || page.next_after === cursor) return events;
    cursor = page.next_after;
  }
}

/**
 * Starts or resumes the session's run. A 409 (the session waits for a review, or is finished) is
 * not an error here: there is nothing to run and the stream just replays what happened.
 */
export async function startRun(sessionId: string, signal: AbortSignal): Promise<void> {
  const response = await fetchOrExplain(`${base(sessionId)}/run`, { method: "POST", signal });
  if (response.status !== 409) await ensureOk(response);
}

export async function openStream(sessionId: string, lastEventId: number, signal: AbortSignal): Promise<Response> {
  await startRun(sessionId, signal);
  const headers: Record<string, string> = { ...SSE_HEADERS };
  if (lastEventId > 0) headers["Last-Event-ID"] = String(lastEventId);
  return fetchOrExplain(`${base(sessionId)}/stream`, { headers, signal, cache: "no-store" });
}

/** Posts a review; resolves with the SSE response once the API accepted it, throws its message otherwise. */
export async function postReview(sessionId: string, input: UserInput, signal: AbortSignal): Promise<Response> {
  const response = await fetchOrExplain(`${base(sessionId)}/user-input`, {
    method: "POST",
    headers: { ...SSE_HEADERS, "Content-Type": "application/json" },
    body: JSON.stringify(input),
    signal,
  });
  return ensureOk(response);
}

export interface AutopilotSettings {
  readonly accept_threshold: number;
  readonly rounds: number;
}

export async function postAutopilot(sessionId: string, settings: AutopilotSettings, signal: AbortSignal): Promise<Response> {
  const response = await fetchOrExplain(`${base(sessionId)}/autopilot`, {
    method: "POST",
    headers: { ...SSE_HEADERS, "Content-Type": "application/json" },
    body: JSON.stringify(settings),
    signal,
  });
  return ensureOk(response);
}
