/**
 * Every page and every review, at a desktop and a phone size: no sideways overflow at 390 px
 * (scrollWidth ≤ innerWidth), zero axe violations, focus on a heading after each review is sent,
 * and an unsent review draft that survives a reload. Screenshots of each screen go to
 * artifacts/screenshots/pages/ (and to SCREENS_DIR when set, for people to look at).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const LONG_TITLE =
  "How can a mid-sized logistics company with three warehouses, a unionised workforce and a legacy ERP system reduce late deliveries by half within a year without raising prices or hiring more drivers?";

async function checkPage(page: Page, viewport: keyof typeof VIEWPORTS, name: string) {
  // The page has settled: no pending lazy chunk or loading line.
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} is wider than the ${viewport} screen`).toBeLessThanOrEqual(0);
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(violations, `axe on ${name}`).toEqual([]);
  const dirs = ["artifacts/screenshots/pages", process.env.SCREENS_DIR].filter((d): d is string => Boolean(d));
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: `${dir}/${viewport}-${name}.png`, fullPage: true });
  }
}

/** After a review is sent, focus sits on a heading that says what happens now (or the next review's). */
async function expectFocusOnHeading(page: Page) {
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-focus-target") ?? document.activeElement?.tagName)).toMatch(/status|review/);
}

for (const [viewport, size] of Object.entries(VIEWPORTS) as [keyof typeof VIEWPORTS, (typeof VIEWPORTS)[keyof typeof VIEWPORTS]][]) {
  test(`every page and review at ${viewport} size: no overflow, no axe violation, focus kept`, async ({ page, request }) => {
    // A whole session with eleven axe scans: 45 s on a quiet 2-core machine, over 120 s when the
    // backend's tests share it (CI runs them side by side).
    test.setTimeout(300_000);
    await page.setViewportSize(size);
    // A session with a long title, so the home list has something to truncate.
    const created = await request.post("/api/v1/sessions", { data: { problem: LONG_TITLE, constraints: [] } });
    expect(created.ok()).toBeTruthy();

    await page.goto("/");
    await expect(page.getByTestId("session-row").first()).toBeVisible();
    await checkPage(page, viewport, "00-home");

    // A problem the demo hypergraph grounds (its noise frame term names a node), so the claims review
    // has hyperpaths to check; a problem none of its nodes names rightly shows "no hyperpath".
    await page.getByLabel("Your problem").fill("How can a school reduce classroom noise without new buildings?");
    await page.getByRole("button", { name: "Start forging" }).click();
    await expect(page).toHaveURL(/\/sessions\//);
    // Focus moves to the new page's heading after navigation.
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();

    const decompose = page.getByTestId("review-decompose");
    await expect(decompose).toBeVisible();
    await checkPage(page, viewport, "01-decompose");
    await decompose.getByRole("checkbox").first().check();
    await decompose.getByRole("button", { name: /confirm and explore/i }).click();
    await expectFocusOnHeading(page);

    const explore = page.getByTestId("review-explore");
    await expect(explore).toBeVisible();
    await checkPage(page, viewport, "02-explore");
    // The supervisor's findings so far (CP-1..4); a choice made there goes with the next review.
    await page.getByRole("tab", { name: /^Supervisor/ }).click();
    const supervisor = page.getByTestId("supervisor-panel");
    await expect(supervisor).toBeVisible();
    await checkPage(page, viewport, "02b-supervisor");
    const dismiss = supervisor.getByRole("checkbox", { name: "Dismiss with my next review" });
    if ((await dismiss.count()) > 0) await dismiss.first().check();
    await page.getByRole("tab", { name: "Now", exact: true }).click();
    await explore.getByRole("button", { name: /star/i }).first().click();
    await explore.getByRole("button", { name: /continue to synthesis/i }).click();
    await expectFocusOnHeading(page);

    const claims = page.getByTestId("review-claims");
    await expect(claims).toBeVisible();
    // An unsent draft survives a reload.
    await claims.getByLabel(/feedback on claim 1/i).fill("Check the weekend data first.");
    await page.waitForTimeout(300); // the draft is saved after the render that shows it
    await page.reload();
    await expect(page.getByTestId("review-claims").getByLabel(/feedback on claim 1/i)).toHaveValue("Check the weekend data first.");
    // The round's SEARCH: lineage and hyperpaths, opened so axe and the overflow check see them.
    await page.getByTestId("review-claims").getByText(/How this round's hypotheses were made/).click();
    await expect(page.getByRole("list", { name: "Hyperpath" }).first()).toBeVisible();
    await checkPage(page, viewport, "03-claims");
    await page.getByTestId("review-claims").getByRole("button", { name: /send feedback and validate/i }).click();
    await expectFocusOnHeading(page);

    const verdicts = page.getByTestId("review-verdicts");
    await expect(verdicts).toBeVisible();
    await checkPage(page, viewport, "04-verdicts");
    const accepts = verdicts.getByRole("radio", { name: /accept/i });
    for (let i = 0; i < (await accepts.count()); i++) await accepts.nth(i).check();
    await verdicts.getByRole("button", { name: /record verdicts/i }).click();
    await expectFocusOnHeading(page);

    const build = page.getByTestId("review-build");
    await expect(build).toBeVisible();
    await checkPage(page, viewport, "05-build");
    await build.getByRole("radio", { name: /resolve/i }).check();
    await build.getByRole("button", { name: /apply decision/i }).click();

    await expect(page.getByTestId("answer-pack")).toBeVisible();
    await page.getByTestId("answer-methodology").locator("summary").click();
    await checkPage(page, viewport, "06-answer");

    await page.getByRole("tab", { name: "Document" }).click();
    await expect(page.getByTestId("knowledge-document")).toBeVisible();
    await checkPage(page, viewport, "06b-document");

    await page.getByRole("tab", { name: "Knowledge graph" }).click();
    await expect(page.getByTestId("knowledge-graph").locator(".react-flow__node").first()).toBeVisible();
    await checkPage(page, viewport, "07-graph");

    const sessionUrl = page.url();
    await page.goto(`${sessionUrl}/report`);
    await expect(page.getByTestId("report").getByRole("heading", { level: 1 })).toBeVisible();
    await checkPage(page, viewport, "08-report");

    await page.goto("/sessions/no-such-session");
    await expect(page.getByText("Session not found").first()).toBeVisible();
    await checkPage(page, viewport, "09-session-not-found");

    await page.goto("/no/such/page");
    await checkPage(page, viewport, "10-page-not-found");

    // The verdicts above became remembered hypotheses: the Memory page lists them.
    await page.getByRole("link", { name: "Memory" }).click();
    await expect(page.getByTestId("memory-item").first()).toBeVisible();
    await checkPage(page, viewport, "11-memory");
  });
}
