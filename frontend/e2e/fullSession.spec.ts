/**
 * A whole session in the browser against the real backend (offline model): every review answered
 * by clicking, the document downloaded, the graph drawn. A screenshot of each phase is saved under
 * artifacts/screenshots/ (git-ignored).
 */
import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { expectActivityMatchesLog, sessionIdFrom } from "./sessionLog";

const PROBLEM = "How can a hospital cut emergency wait times without more staff?";
const shot = (page: Page, name: string) => page.screenshot({ path: `artifacts/screenshots/${name}.png`, fullPage: true });

test("a full session by clicking through all five reviews to the answer and the document", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /Turn a hard problem/ })).toBeVisible();
  await page.getByLabel("Your problem").fill(PROBLEM);
  await page.getByLabel("Constraints (optional)").fill("keep the current triage protocol");
  await page.getByRole("button", { name: "Add" }).click();
  await shot(page, "00-home");
  await page.getByRole("button", { name: "Start forging" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  const sessionId = sessionIdFrom(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROBLEM);
  await expect(page.getByRole("list", { name: "Constraints" })).toHaveText("keep the current triage protocol");

  // 1. DECOMPOSE → review: reject one assumption, confirm another, select a reframing.
  const decompose = page.getByTestId("review-decompose");
  await expect(decompose).toBeVisible();
  await shot(page, "01-decompose-review");
  // The research the agent did is listed with its sources.
  await expect(page.getByTestId("activity").getByRole("list", { name: "Sources for research" }).first()).toBeVisible();
  await decompose.getByRole("button", { name: /confirm and explore/i }).click();
  await expect(decompose.getByRole("alert")).toContainText(/reframing/i); // validated before sending
  await decompose.getByRole("checkbox").first().check();
  await decompose.getByRole("button", { name: /confirm and explore/i }).click();

  // 2. EXPLORE → review: star an analogy.
  const explore = page.getByTestId("review-explore");
  await expect(explore).toBeVisible();
  await expect(explore.getByRole("table")).toBeVisible();
  // The activity panel follows the newest entry while the agent works.
  const activity = page.getByTestId("activity");
  await expect.poll(() => activity.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(40);
  await shot(page, "02-explore-review");
  await explore.getByRole("button", { name: /star/i }).first().click();
  await explore.getByRole("button", { name: /continue to synthesis/i }).click();

  // 3. SYNTHESIZE → claims review: feedback on the first claim.
  const claims = page.getByTestId("review-claims");
  await expect(claims).toBeVisible();
  await shot(page, "03-claims-review");
  await claims.getByLabel(/feedback on claim 1/i).fill("Check the night shift first.");
  await claims.getByRole("button", { name: /send feedback and validate/i }).click();

  // 4. VALIDATE → verdicts: accept every claim.
  const verdicts = page.getByTestId("review-verdicts");
  await expect(verdicts).toBeVisible();
  await shot(page, "04-verdicts-review");
  const accepts = verdicts.getByRole("radio", { name: /accept/i });
  for (let i = 0; i < (await accepts.count()); i++) await accepts.nth(i).check();
  await verdicts.getByRole("button", { name: /record verdicts/i }).click();

  // 5. BUILD → decision: resolve.
  const build = page.getByTestId("review-build");
  await expect(build).toBeVisible();
  await shot(page, "05-build-review");
  await build.getByRole("radio", { name: /resolve/i }).check();
  await build.getByRole("button", { name: /apply decision/i }).click();

  // 6. CRYSTALLIZE → the Answer tab first: the direct answer and every hard constraint audited.
  const answer = page.getByTestId("answer-pack");
  await expect(answer).toBeVisible();
  await expect(page.getByRole("tab", { name: "Answer" })).toHaveAttribute("aria-selected", "true");
  await expect(answer.getByRole("heading", { name: "Direct answer" })).toBeVisible();
  const compliance = answer.getByTestId("compliance-table");
  await expect(compliance).toContainText("keep the current triage protocol");
  await expect(compliance).toContainText("without more staff");
  const pack = await (await request.get(`/api/v1/sessions/${sessionId}/answer.json`)).json();
  await expect(compliance.locator("tbody tr")).toHaveCount(pack.compliance.checks.length);
  await shot(page, "06-answer");

  // … then the document, downloadable.
  await page.getByRole("tab", { name: "Document" }).click();
  const documentView = page.getByTestId("knowledge-document");
  await expect(documentView).toBeVisible();
  await expect(documentView.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("phase-crystallize")).toHaveAttribute("data-state", "done");
  await shot(page, "06b-document");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Markdown" }).click()]);
  const markdown = await readFile((await download.path())!, "utf-8");
  expect(download.suggestedFilename()).toBe(`knowledge-document-${sessionId}.md`);
  expect(markdown).toMatch(/^# /);
  expect(markdown).toContain("emergency wait times");

  // The graph shows the claims and their links; clicking a claim shows its evidence.
  await page.getByRole("tab", { name: "Knowledge graph" }).click();
  const graph = page.getByTestId("knowledge-graph");
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  expect(await graph.locator(".react-flow__node").count()).toBeGreaterThan(0);
  expect(await graph.locator(".react-flow__edge").count()).toBeGreaterThan(0);
  await graph.locator(".react-flow__node").first().click();
  await expect(page.getByTestId("claim-detail")).toBeVisible();
  // The same claims are reachable from the keyboard.
  await page.getByRole("button", { name: "Close claim details" }).click();
  await expect(page.getByTestId("claim-detail")).toHaveCount(0);
  const listed = page.getByRole("list", { name: "Claims in the graph" }).getByRole("button");
  expect(await listed.count()).toBe(await graph.locator(".react-flow__node").count());
  await listed.last().focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("claim-detail")).toBeVisible();
  await expect(listed.last()).toHaveAttribute("aria-pressed", "true");
  await shot(page, "07-graph");

  // The activity shows exactly the server's log.
  await page.getByRole("tab", { name: "Now", exact: true }).click();
  await expectActivityMatchesLog(page, request, sessionId);

  // The standalone report renders the same document.
  await page.goto(`/sessions/${sessionId}/report`);
  await expect(page.getByTestId("report").getByRole("heading", { level: 1 })).toBeVisible();
  await shot(page, "08-report");

  // The home page lists the session as crystallized.
  await page.goto("/");
  await expect(page.getByTestId("session-row").first()).toContainText("Crystallized");
});

test("the session page is readable at a phone's width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByLabel("Your problem").fill("How can a small bakery reduce food waste without losing sales?");
  await page.getByRole("button", { name: "Start forging" }).click();
  await expect(page.getByTestId("review-decompose")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await shot(page, "09-phone-decompose");
});
