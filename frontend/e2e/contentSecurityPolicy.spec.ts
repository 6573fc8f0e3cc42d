/**
 * The app runs under the server's strict Content-Security-Policy (no inline script, styles from
 * its own origin): a session page with its graph and report renders without a single violation.
 */
import { expect, test } from "@playwright/test";

const PROBLEM = "How can a library lend more books without more shelves?";

test("the app runs under its Content-Security-Policy without violations", async ({ page }) => {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolations: string[] }).__cspViolations ??= [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  const response = await page.goto("/");
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("frame-ancestors 'none'");
  await page.getByLabel("Your problem").fill(PROBLEM);
  await page.getByRole("button", { name: "Start forging" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  await expect(page.getByTestId("review-decompose")).toBeVisible();
  const fromPage = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
  expect([...violations, ...fromPage]).toEqual([]);
});
