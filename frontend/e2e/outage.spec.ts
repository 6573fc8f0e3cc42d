/**
 * A real outage: the server is stopped mid-phase and started again on the same data. The page says
 * it is reconnecting, keeps everything it showed, and picks up by itself once the server is back
 * (no reload): the review arrives and the activity equals the server's log, nothing duplicated.
 */
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { forgeServer, MID_PHASE_STEP_DELAY } from "./forgeServer";
import { expectActivityMatchesLog, sessionIdFrom, shownActivityIds } from "./sessionLog";

const PORT = Number(process.env.E2E_OUTAGE_PORT ?? 8766);

test("the session page survives the server stopping and starting again mid-phase", async ({ page }) => {
  const server = forgeServer(PORT, "artifacts/e2e-outage-data", MID_PHASE_STEP_DELAY);
  await server.start();
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  try {
    await page.goto(`${server.url}/`);
    await page.getByLabel("Your problem").fill("How can a regional airline cut turnaround time without new gates?");
    await page.getByRole("button", { name: "Start forging" }).click();
    await expect(page).toHaveURL(/\/sessions\//);
    const activity = page.getByTestId("activity");
    await expect(activity.locator('[data-kind="tool_call"]').first()).toBeVisible();
    await expect(page.getByTestId("review-decompose")).toHaveCount(0);
    // A marker that a reload would wipe: the page must recover without one.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    // When the notice appears, by the browser's clock (a MutationObserver), against when the stop began.
    await page.evaluate(() => {
      const w = window as unknown as { __noticeAt?: number };
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-testid="reconnecting"]')) {
          w.__noticeAt = Date.now();
          observer.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const stoppedAt = Date.now();
    await server.stop();
    const shownBefore = await shownActivityIds(page);
    await expect(page.getByTestId("reconnecting")).toBeVisible({ timeout: 2_000 });
    const noticeAt = await page.evaluate(() => (window as unknown as { __noticeAt?: number }).__noticeAt ?? Number.NaN);
    test.info().annotations.push({ type: "reconnecting notice after stop (ms)", description: String(noticeAt - stoppedAt) });
    console.log(`reconnecting notice ${noticeAt - stoppedAt} ms after the server was told to stop`);
    await expect(page.getByTestId("session-page")).toHaveAttribute("data-connection", "reconnecting");
    // Down for a while: nothing shown is lost and the page does not give up.
    await page.waitForTimeout(4_000);
    await expect(page.getByText("could not be opened")).toHaveCount(0);
    expect((await shownActivityIds(page)).slice(0, shownBefore.length)).toEqual(shownBefore);
    await expect(page.getByRole("status").filter({ hasText: "Reconnecting" }).first()).toBeAttached();
    await page.screenshot({ path: "artifacts/screenshots/outage-reconnecting.png", fullPage: true });

    await server.start();
    await expect(page.getByTestId("review-decompose")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("reconnecting")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expectActivityMatchesLog(page, api, sessionIdFrom(page));
    await page.screenshot({ path: "artifacts/screenshots/outage-recovered.png", fullPage: true });
  } finally {
    await api.dispose();
    await server.stop();
  }
});

// Acts mid-phase, so it runs on a server of its own with the step delay (the shared server runs
// at full speed and can reach the review before the network is cut). The tests of this file run
// one after the other: the first has stopped its server on this port.
test("losing the network shows reconnecting at once and recovers when it is back", async ({ page, context }) => {
  const server = forgeServer(PORT, "artifacts/e2e-network-data", MID_PHASE_STEP_DELAY);
  await server.start();
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  try {
    await runNetworkLoss(page, context, api, server.url);
  } finally {
    await api.dispose();
    await server.stop();
  }
});

async function runNetworkLoss(page: Page, context: BrowserContext, request: APIRequestContext, url: string) {
  await page.goto(`${url}/`);
  await page.getByLabel("Your problem").fill("How can a museum shorten entry queues without more staff?");
  await page.getByRole("button", { name: "Start forging" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  await expect(page.getByTestId("activity").locator('[data-kind="tool_call"]').first()).toBeVisible();
  await expect(page.getByTestId("review-decompose")).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  await context.setOffline(true);
  await expect(page.getByTestId("reconnecting")).toBeVisible({ timeout: 2_000 });
  await page.waitForTimeout(2_000);
  await context.setOffline(false);
  await expect(page.getByTestId("review-decompose")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("reconnecting")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expectActivityMatchesLog(page, request, sessionIdFrom(page));
}
