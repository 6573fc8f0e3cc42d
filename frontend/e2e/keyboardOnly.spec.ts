/**
 * Every review completed with the keyboard alone: each control is reached with Tab (never a click
 * or a programmatic focus) and operated with Space, Enter, arrows and typing.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";

/** Presses Tab until `target` has focus; fails if it is not reachable within `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 250) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`not reachable with Tab: ${target}`);
}

/** Tabs into a radio group (one stop per group) and moves with the arrow keys until `target` is checked. */
async function chooseRadio(page: Page, target: Locator) {
  const name = await target.getAttribute("name");
  for (let i = 0; i < 250; i++) {
    const focusedName = await page.evaluate(() => (document.activeElement instanceof HTMLInputElement && document.activeElement.type === "radio" ? document.activeElement.name : null));
    if (focusedName === name) break;
    await page.keyboard.press("Tab");
  }
  for (let i = 0; i < 10 && !(await target.isChecked()); i++) await page.keyboard.press("ArrowDown");
  await expect(target).toBeChecked();
}

test("all five reviews can be answered with the keyboard alone", async ({ page }) => {
  await page.goto("/");
  await tabTo(page, page.getByLabel("Your problem"));
  await page.keyboard.type("How can a ferry operator cut boarding time without new terminals?");
  await tabTo(page, page.getByRole("button", { name: "Start forging" }));
  await page.keyboard.press("Enter");

  const decompose = page.getByTestId("review-decompose");
  await expect(decompose).toBeVisible();
  await tabTo(page, decompose.getByRole("checkbox").first());
  await page.keyboard.press("Space");
  await expect(decompose.getByRole("checkbox").first()).toBeChecked();
  await tabTo(page, decompose.getByRole("button", { name: /confirm and explore/i }));
  await page.keyboard.press("Enter");

  const explore = page.getByTestId("review-explore");
  await expect(explore).toBeVisible();
  // The morphological box scrolls sideways: it is a tab stop of its own.
  await tabTo(page, explore.getByRole("group", { name: /Morphological box/ }));
  const star = explore.getByRole("button", { name: /star/i }).first();
  await tabTo(page, star);
  await page.keyboard.press("Enter");
  await expect(star).toHaveAttribute("aria-pressed", "true");
  await tabTo(page, explore.getByRole("button", { name: /continue to synthesis/i }));
  await page.keyboard.press("Enter");

  const claims = page.getByTestId("review-claims");
  await expect(claims).toBeVisible();
  await tabTo(page, claims.getByLabel(/feedback on claim 1/i));
  await page.keyboard.type("Check the winter timetable first.");
  await tabTo(page, claims.getByRole("button", { name: /send feedback and validate/i }));
  await page.keyboard.press("Enter");

  const verdicts = page.getByTestId("review-verdicts");
  await expect(verdicts).toBeVisible();
  const accepts = verdicts.getByRole("radio", { name: /accept/i });
  for (let i = 0; i < (await accepts.count()); i++) await chooseRadio(page, accepts.nth(i));
  await tabTo(page, verdicts.getByRole("button", { name: /record verdicts/i }));
  await page.keyboard.press("Enter");

  const build = page.getByTestId("review-build");
  await expect(build).toBeVisible();
  await chooseRadio(page, build.getByRole("radio", { name: /resolve/i }));
  await tabTo(page, build.getByRole("button", { name: /apply decision/i }));
  await page.keyboard.press("Enter");

  await expect(page.getByTestId("answer-pack")).toBeVisible();
  await tabTo(page, page.getByRole("tab", { name: "Document" }));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("knowledge-document")).toBeVisible();
});
