/**
 * Checks that what the activity panel shows is exactly the server's event log: every visible
 * event once, none missing, in order. The mapping mirrors the timeline reducer: each stored
 * `agent_text` is one whole reply (one entry; the live draft it replaced has no id and is not
 * compared), a resumed phase is a note with its id; usage, done, heartbeat, the document and the
 * supervisor's findings and directives have no activity entry.
 */
import { expect, type APIRequestContext, type Page } from "@playwright/test";

interface LoggedEvent {
  id: number;
  type: string;
}

// SAGA findings and directives are listed in the Supervisor tab; their checkpoint is the activity entry.
const HIDDEN = new Set(["context_usage", "done", "heartbeat", "knowledge_document", "saga_finding", "saga_directive"]);

export async function eventLog(request: APIRequestContext, sessionId: string): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  let after = 0;
  for (;;) {
    const response = await request.get(`/api/v1/sessions/${sessionId}/events?after=${after}&limit=500`);
    expect(response.ok()).toBeTruthy();
    const page = (await response.json()) as { events: LoggedEvent[]; has_more: boolean; next_after: number };
    events.push(...page.events.map((e) => ({ id: e.id, type: e.type })));
    if (!page.has_more) return events;
    after = page.next_after;
  }
}

export function expectedActivityIds(events: readonly LoggedEvent[]): number[] {
  return events.filter((e) => !HIDDEN.has(e.type)).map((e) => e.id);
}

export async function shownActivityIds(page: Page): Promise<number[]> {
  return page
    .getByTestId("activity")
    .locator("[data-event-id]")
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-event-id"))));
}

/** The activity panel equals the log (no duplicate, nothing lost), once the turn has paused. */
export async function expectActivityMatchesLog(page: Page, request: APIRequestContext, sessionId: string) {
  const expected = expectedActivityIds(await eventLog(request, sessionId));
  await expect.poll(() => shownActivityIds(page)).toEqual(expected);
  const shown = await shownActivityIds(page);
  expect(new Set(shown).size).toBe(shown.length);
}

export function sessionIdFrom(page: Page): string {
  const match = /\/sessions\/([^/?#]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`not on a session page: ${page.url()}`);
  return match[1];
}
