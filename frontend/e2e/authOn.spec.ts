/**
 * FORGE_AUTH=on, as a team runs it: the app asks for a login first; after it, a session starts and
 * reaches its first review (every POST carries the login's CSRF token); the account menu works
 * from the keyboard; a token made on the tokens page works for the API (an anonymous call does
 * not); the login and token pages have no axe violations; logging out brings the login back.
 */
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import { expect, request as playwrightRequest, test, type Page } from "@playwright/test";
import { forgeServer } from "./forgeServer";

const PORT = Number(process.env.E2E_AUTH_PORT ?? 8767);
const DATA_DIR = "artifacts/e2e-auth-data";
const EMAIL = "lead@example.org";
const PASSWORD = "a long team password";

async function expectNoAxeViolations(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`), `axe on ${name}`).toEqual([]);
}

test("with auth on, a person logs in, starts a session, makes a token and logs out", async ({ page }) => {
  const server = forgeServer(PORT, DATA_DIR, { FORGE_AUTH: "on" });
  execFileSync("../backend/.venv/bin/forge", ["users", "add", EMAIL, "--admin"], {
    input: `${PASSWORD}\n`,
    env: { ...process.env, FORGE_DATA_DIR: DATA_DIR, DATABASE_URL: "" },
  });
  await server.start();
  const anonymous = await playwrightRequest.newContext({ baseURL: server.url });
  try {
    expect((await anonymous.get("/api/v1/sessions")).status()).toBe(401);

    await page.goto(`${server.url}/`);
    await expect(page.getByRole("heading", { name: "Log in to Knowledge Forge" })).toBeVisible();
    await expectNoAxeViolations(page, "login");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toContainText("Wrong email or password.");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();

    await page.getByLabel("Your problem").fill("How can a community garden feed more families without more land?");
    await page.getByRole("button", { name: "Start forging" }).click();
    await expect(page).toHaveURL(/\/sessions\//);
    await expect(page.getByTestId("review-decompose")).toBeVisible();

    const menu = page.getByRole("button", { name: `Account: ${EMAIL}` });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "API tokens" })).toBeFocused();
    await page.keyboard.press("Enter");

    await expect(page.getByRole("heading", { name: "API tokens", exact: true })).toBeVisible();
    await page.getByLabel("What will use it").fill("e2e script");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
    expect(token).toMatch(/^kf_/);
    await expect(page.getByRole("cell", { name: "e2e script", exact: true })).toBeVisible();
    await expectNoAxeViolations(page, "tokens");

    const integration = await playwrightRequest.newContext({
      baseURL: server.url,
      extraHTTPHeaders: { Authorization: `Bearer ${token}` },
    });
    const listed = await integration.get("/api/v1/sessions");
    expect(listed.status()).toBe(200);
    expect((await listed.json()).total).toBe(1);
    await integration.dispose();

    await page.getByRole("button", { name: `Account: ${EMAIL}` }).click();
    await page.getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
    await expect(page.getByRole("cell", { name: EMAIL, exact: true })).toBeVisible();
    await expectNoAxeViolations(page, "users");

    await page.getByRole("button", { name: `Account: ${EMAIL}` }).click();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("heading", { name: "Log in to Knowledge Forge" })).toBeVisible();
  } finally {
    await anonymous.dispose();
    await server.stop();
  }
});
