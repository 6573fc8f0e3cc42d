/**
 * The live view survives a cut connection and a reload mid-phase: afterwards the activity panel
 * equals the server's event log exactly — nothing duplicated, nothing lost. These tests act while a
 * phase works, so they run against a server of their own whose model steps are slowed down.
 */
import { expect, test, type Page } from "@playwright/test";
import { startCuttableProxy } from "./cuttableProxy";
import { forgeServer, MID_PHASE_STEP_DELAY, type ForgeServer } from "./forgeServer";
import { expectActivityMatchesLog, sessionIdFrom } from "./sessionLog";

const PORT = Number(process.env.E2E_RECOVERY_PORT ?? 8768);
let server: ForgeServer;

test.use({ baseURL: `http://127.0.0.1:${PORT}` });
test.beforeAll(async () => {
  server = forgeServer(PORT, "artifacts/e2e-recovery-data", MID_PHASE_STEP_DELAY);
  await server.start();
});
test.afterAll(async () => server.stop());

const PROBLEM = "How can a city reduce traffic congestion without building new roads?";

async function startSession(page: Page, base: string) {
  await page.goto(`${base}/`);
  await page.getByLabel("Your problem").fill(PROBLEM);
  await page.getByRole("button", { name: "Start forging" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
}

test("recovers from a connection cut mid-phase without duplicating or losing events", async ({ page, request }) => {
  const proxy = await startCuttableProxy(PORT);
  const resumedFrom: number[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/stream")) resumedFrom.push(Number(r.headers()["last-event-id"] ?? 0));
  });
  try {
    await startSession(page, proxy.url);
    const activity = page.getByTestId("activity");
    // Cut while DECOMPOSE is still working: after its first tool call, before its review.
    await expect(activity.locator('[data-kind="tool_call"]').first()).toBeVisible();
    await expect(page.getByTestId("review-decompose")).toHaveCount(0);
    expect(proxy.cutAll()).toBeGreaterThan(0);
    await expect(page.getByTestId("review-decompose")).toBeVisible();
    // The stream was opened again, resuming after the last event the page had (not from zero).
    expect(resumedFrom.length).toBeGreaterThanOrEqual(2);
    expect(resumedFrom.at(-1)).toBeGreaterThan(0);
    await expectActivityMatchesLog(page, request, sessionIdFrom(page));
    await page.screenshot({ path: "artifacts/screenshots/recovery-after-cut.png", fullPage: true });
  } finally {
    await proxy.close();
  }
});

test("a reload mid-phase restores the session from the API and follows on", async ({ page, request }) => {
  await startSession(page, "");
  const activity = page.getByTestId("activity");
  await expect(activity.locator('[data-kind="tool_call"]').first()).toBeVisible();
  await expect(page.getByTestId("review-decompose")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("phase-decompose")).toHaveAttribute("data-state", "current");
  await expect(page.getByTestId("review-decompose")).toBeVisible();
  await expectActivityMatchesLog(page, request, sessionIdFrom(page));
  // A second reload while paused shows the same review and the same activity.
  await page.reload();
  await expect(page.getByTestId("review-decompose")).toBeVisible();
  await expectActivityMatchesLog(page, request, sessionIdFrom(page));
});
