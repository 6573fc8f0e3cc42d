/**
 * The dark theme follows the system setting (`prefers-color-scheme: dark`): every page and review
 * of a whole session passes axe (colour contrast included) at desktop and phone sizes, and the
 * page really is dark. Screenshots: artifacts/screenshots/dark/.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { driveOfflineSession, watchConsole } from "./driveSession";

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

test.use({ colorScheme: "dark" });

for (const [viewport, size] of Object.entries(VIEWPORTS)) {
  test(`dark theme at ${viewport} size: dark, axe-clean, no overflow, diagram drawn`, async ({ page }) => {
    await page.setViewportSize(size);
    const seen = watchConsole(page);
    const dir = "artifacts/screenshots/dark";
    mkdirSync(dir, { recursive: true });
    await driveOfflineSession(page, "How can a regional airline cut turnaround time without new gates?", async (name) => {
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      // The body's colour as sRGB (computed colours may be oklch): drawn on a canvas and read back.
      const [r, g, b] = await page.evaluate(() => {
        const context = document.createElement("canvas").getContext("2d")!;
        context.fillStyle = getComputedStyle(document.body).backgroundColor;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data];
      });
      expect(Math.max(r!, g!, b!), `${name} background rgb(${r}, ${g}, ${b})`).toBeLessThan(60);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} is wider than the ${viewport} screen`).toBeLessThanOrEqual(0);
      const results = await new AxeBuilder({ page }).analyze();
      const violations = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(violations, `axe on ${name} (dark, ${viewport})`).toEqual([]);
      await page.screenshot({ path: `${dir}/${viewport}-${name}.png`, fullPage: name !== "06-document" && name !== "08-report" });
      if (name === "06-document") {
        await page.getByTestId("mermaid-diagram").first().screenshot({ path: `${dir}/${viewport}-06-document-diagram.png` });
        // A comfortable measure: no paragraph of the document runs past 80 characters a line.
        const widest = await page.getByTestId("knowledge-document").locator("p, li").evaluateAll((blocks) =>
          Math.max(
            ...blocks.map((block) => {
              const lineHeight = parseFloat(getComputedStyle(block).lineHeight);
              const lines = Math.max(1, Math.round(block.getBoundingClientRect().height / lineHeight));
              return lines > 1 ? (block.textContent ?? "").length / (lines - 0.5) : 0; // the last line may be short
            }),
          ),
        );
        expect(widest, "characters per line in the document").toBeLessThanOrEqual(80);
      }
    });
    expect(seen.cspViolations).toEqual([]);
  });
}
