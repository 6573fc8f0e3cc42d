/**
 * Drives a whole offline session through its five reviews without reading any words (test ids,
 * roles, input values), so the same steps run in every UI language and colour scheme. `onScreen`
 * is called at each stop (home, each review, document, graph, report) to check and photograph it.
 */
import { expect, type Page } from "@playwright/test";

export type ScreenName = "00-home" | "01-decompose" | "02-explore" | "03-claims" | "04-verdicts" | "05-build" | "05-answer" | "06-document" | "07-graph" | "08-report";

const submit = (page: Page, testId: string) => page.getByTestId(testId).locator('button[type="submit"]').click();

export async function driveOfflineSession(page: Page, problem: string, onScreen: (name: ScreenName) => Promise<void>): Promise<string> {
  await page.goto("/");
  await expect(page.locator("form textarea")).toBeVisible();
  await onScreen("00-home");
  await page.locator("form textarea").fill(problem);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/sessions\//);
  const sessionUrl = page.url();

  const decompose = page.getByTestId("review-decompose");
  await expect(decompose).toBeVisible();
  await onScreen("01-decompose");
  await decompose.getByRole("checkbox").first().check();
  await submit(page, "review-decompose");

  const explore = page.getByTestId("review-explore");
  await expect(explore).toBeVisible();
  await onScreen("02-explore");
  await explore.locator("button[aria-pressed]").first().click();
  await submit(page, "review-explore");

  await expect(page.getByTestId("review-claims")).toBeVisible();
  await onScreen("03-claims");
  await submit(page, "review-claims");

  const verdicts = page.getByTestId("review-verdicts");
  await expect(verdicts).toBeVisible();
  await onScreen("04-verdicts");
  const accepts = verdicts.locator('input[type="radio"][value="accept"]');
  for (let i = 0; i < (await accepts.count()); i++) await accepts.nth(i).check();
  await submit(page, "review-verdicts");

  const build = page.getByTestId("review-build");
  await expect(build).toBeVisible();
  await onScreen("05-build");
  await build.locator('input[type="radio"][value="resolve"]').check();
  await submit(page, "review-build");

  // A finished session opens on its Answer tab; the document is one tab further.
  await expect(page.getByTestId("answer-pack")).toBeVisible();
  await onScreen("05-answer");
  await page.getByRole("tab", { name: /^(Document|文档|ドキュメント)/ }).click();
  await expect(page.getByTestId("knowledge-document")).toBeVisible();
  await expect(page.getByTestId("knowledge-document").getByTestId("mermaid-diagram")).toBeVisible();
  await onScreen("06-document");

  await page.getByRole("tab", { name: /Knowledge graph|知识图谱|ナレッジグラフ/ }).click();
  await expect(page.getByTestId("knowledge-graph").locator(".react-flow__node").first()).toBeVisible();
  await onScreen("07-graph");

  await page.goto(`${sessionUrl}/report`);
  await expect(page.getByTestId("report").getByTestId("mermaid-diagram")).toBeVisible();
  await onScreen("08-report");
  return sessionUrl;
}

/** Console lines i18next writes for a key missing in the language shown, and CSP violations. */
export function watchConsole(page: Page): { missingKeys: string[]; cspViolations: string[] } {
  const seen = { missingKeys: [] as string[], cspViolations: [] as string[] };
  page.on("console", (message) => {
    const text = message.text();
    if (text.includes("i18n: missing key")) seen.missingKeys.push(text);
    if (text.includes("Content Security Policy")) seen.cspViolations.push(text);
  });
  return seen;
}
