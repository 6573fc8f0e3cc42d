/**
 * The UI in Chinese and Japanese, chosen from the browser's language: a whole offline session,
 * every review, the document (its Mermaid graph drawn as SVG), the graph and the report, with no
 * key missing in the language shown, `<html lang>` set, the offline model's English pointed out,
 * and no CSP violation. English is the other specs' language. The problems are English: the
 * offline model's research corpus is English, so it cannot map the state of the art of a Chinese
 * problem (a real model writes in the problem's language). Screenshots:
 * artifacts/screenshots/languages/.
 */
import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { driveOfflineSession, watchConsole } from "./driveSession";

const LANGUAGES = [
  { lang: "zh", locale: "zh-CN", htmlLang: "zh-Hans", homeTitle: "把难题变成经过验证的知识", decompose: "分解", problem: "How can a library lend more books without more shelves?" },
  { lang: "ja", locale: "ja-JP", htmlLang: "ja", homeTitle: "難しい問題を検証済みの知識に変える", decompose: "分解", problem: "How can a museum shorten entry queues without more staff?" },
] as const;

for (const language of LANGUAGES) {
  test.describe(`in ${language.lang}`, () => {
    test.use({ locale: language.locale, viewport: { width: 1440, height: 900 } });

    test(`a whole offline session renders in ${language.lang} without a missing key`, async ({ page }) => {
      const seen = watchConsole(page);
      const dir = "artifacts/screenshots/languages";
      mkdirSync(dir, { recursive: true });
      await driveOfflineSession(page, language.problem, async (name) => {
        await expect(page.locator("html")).toHaveAttribute("lang", language.htmlLang);
        if (name === "00-home") await expect(page.getByRole("heading", { level: 1 })).toHaveText(language.homeTitle);
        if (name === "01-decompose") await expect(page.getByTestId("phase-decompose")).toContainText(language.decompose);
        if (name === "06-document") {
          await expect(page.getByTestId("offline-model-note").first()).toBeVisible();
          await page.getByTestId("mermaid-diagram").first().screenshot({ path: `${dir}/${language.lang}-06-document-diagram.png` });
          await page.getByTestId("knowledge-document").locator("h1").screenshot({ path: `${dir}/${language.lang}-06-document-title.png` });
        }
        await page.screenshot({ path: `${dir}/${language.lang}-${name}.png`, fullPage: true });
      });
      expect(seen.missingKeys).toEqual([]);
      expect(seen.cspViolations).toEqual([]);
    });
  });
}
