/**
 * The live draft and a server restart, in the real browser: the offline model does not stream, so
 * this session's API is played by the page's routes (the SPA itself comes from the real server).
 *   1. The stream sends live `agent_text_delta` frames (no id), then the server shuts down: the
 *      draft shows while the page reconnects and says why.
 *   2. The reconnect resumes after the last STORED id (the live frames did not move it), the draft
 *      is dropped, and the stored `agent_text` shows the whole reply once.
 */
import { expect, test, type Route } from "@playwright/test";

const SESSION_ID = "e2e-live-draft";
const BASE = `/api/v1/sessions/${SESSION_ID}`;
const REPLY = "The fundamentals of the queue are arrival rate, service rate and variability.";

const session = {
  id: SESSION_ID,
  problem: "How can a clinic shorten its queue?",
  statement: "How can a clinic shorten its queue?",
  constraints: [],
  status: "decomposing",
  current_phase: "decompose",
  current_phase_number: 1,
  current_round: 0,
  running: true,
  awaiting_input_type: null,
  model: "offline",
  created_at: "2026-11-22T10:00:00Z",
  resolved_at: null,
  total_cost_usd: 0,
  total_tokens_used: 0,
  spend_by_phase: null,
};

const stored = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const live = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const sse = (route: Route, body: string) => route.fulfill({ status: 200, headers: { "Content-Type": "text/event-stream" }, body });

test("a live draft is replaced by the stored reply, and a server shutdown is reconnected after the last id", async ({ page }) => {
  const resumedFrom: string[] = [];
  let releaseSecond: () => void = () => undefined;
  const secondMayAnswer = new Promise<void>((resolve) => (releaseSecond = resolve));

  await page.route(`**${BASE}`, (route) => route.fulfill({ json: session }));
  // Each (re)connection POSTs /run first; the run is live, so nothing starts.
  await page.route(`**${BASE}/run`, (route) => route.fulfill({ json: { started: false, session } }));
  await page.route(new RegExp(`${BASE}/events\\?`), (route) =>
    route.fulfill({
      json: {
        events: [{ id: 1, type: "phase_change", data: { phase: "decompose", round: 0, resumed: false }, created_at: "2026-11-22T10:00:00Z" }],
        next_after: 1,
        has_more: false,
      },
    }),
  );
  await page.route(`**${BASE}/stream`, async (route) => {
    resumedFrom.push(route.request().headers()["last-event-id"] ?? "");
    if (resumedFrom.length === 1)
      return sse(
        route,
        live("agent_text_delta", { text: "The fundamentals of the queue " }) +
          live("agent_text_delta", { text: "are arrival rate" }) +
          live("error", { code: "SERVER_SHUTDOWN", message: "The server is shutting down.", recoverable: true, severity: "warning" }),
      );
    await secondMayAnswer;
    return sse(
      route,
      stored(1, "heartbeat", {}) +
        stored(2, "agent_text", REPLY) +
        stored(3, "phase_change", { phase: "decompose", round: 0, resumed: true }) +
        stored(4, "done", { error: false, awaiting_input: false }),
    );
  });

  await page.goto(`/sessions/${SESSION_ID}`);
  const activity = page.getByTestId("activity");
  const draft = activity.locator('[data-kind="draft"]');
  await expect(draft).toHaveText(/The fundamentals of the queue are arrival rate/);
  await expect(page.getByText("Connection lost — reconnecting")).toBeVisible();
  await expect(page.getByText("The server is shutting down.")).toBeVisible();
  await page.screenshot({ path: "artifacts/screenshots/10-live-draft-reconnecting.png", fullPage: true });

  releaseSecond();
  await expect(activity.locator('[data-kind="text"]')).toHaveText(REPLY);
  await expect(draft).toHaveCount(0);
  await expect(activity.getByText("arrival rate, service rate")).toHaveCount(1);
  // The resumed run is a note in the activity, not a second DECOMPOSE.
  await expect(activity.locator('[data-kind="resumed"]')).toHaveText(/Resumed · Decompose · round 1/);
  await expect(activity.locator('[data-kind="phase"]')).toHaveCount(1);
  expect(resumedFrom).toEqual(["1", "1"]);
  await page.screenshot({ path: "artifacts/screenshots/11-live-draft-replaced.png", fullPage: true });
});
