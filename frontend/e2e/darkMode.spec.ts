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
        // Characters a line holds: the block's width over the average width of its characters in
        // its own font (measured on a canvas), for every block long enough to wrap.
        const widest = await page.getByTestId("knowledge-document").locator("article p, article li").evaluateAll((blocks) => {
          const context = document.createElement("canvas").getContext("2d")!;
          const perLine = blocks.map((block) => {
            const text = (block.textContent ?? "").replace(/\s+/g, " ").trim();
            const style = getComputedStyle(block);
            context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const textWidth = context.measureText(text).width;
            const width = block.getBoundingClientRect().width;
            return textWidth > width ? { chars: Math.round(width / (textWidth / text.length)), text: text.slice(0, 60) } : { chars: 0, text };
          });
          return perLine.reduce((a, b) => (b.chars > a.chars ? b : a), { chars: 0, text: "" });
        });
        expect(widest.chars, `characters per line in the document: “${widest.text}…”`).toBeLessThanOrEqual(80);
      }
    });
    expect(seen.cspViolations).toEqual([]);
  });
}
