/**
 * A person on an English browser switches the UI to Simplified Chinese and walks a whole offline
 * session: home, every review, the Supervisor tab, the Answer tab, the document, the graph, the
 * report and Memory. On every page visited no English UI chrome is left and axe finds nothing.
 *
 * "Chrome" is every Latin-script word on the screen (text, and the aria-label / title /
 * placeholder / alt a screen reader or tooltip gives) that is not something the server sent as
 * data: the person's problem, the offline model's output, the supervisor's messages, the document.
 * The server's data for the session is read from the API into one corpus; a Latin run on screen
 * must be a piece of it (the offline model writes English by design), or a name that is the same in
 * every language (API, JSON, Markdown, GraphML and the graph tools it is for, the engine's stage
 * names, checkpoint ids).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { driveOfflineSession, watchConsole, type ScreenName } from "./driveSession";

// Grounded by the demo hypergraph (peak load is a node), so the claims review shows hyperpaths to check.
const PROBLEM = "How can a small bakery cut its energy bill at peak load without new ovens?";
/** Names written the same in every language of the UI. */
const SAME_IN_EVERY_LANGUAGE =
  /^(API|JSON|Markdown|Knowledge Forge|English|Enter|BISO|SEARCH|VERIFY|SOLVE|TRIZ|MOME|HKG|SAGA|C-K|CP-\d|F|p|r|C|std|http|https|URL|Bearer|Authorization|offline|GraphML|Gephi|Cytoscape|yEd)$/;

/** Every string field of a JSON value, plus the same with underscores read as spaces (the UI shows ids that way). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value, value.replaceAll("_", " "));
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) strings(item, out);
  return out;
}

/** What the server sent about this session, as one text: anything in it is content, not chrome. */
async function contentCorpus(request: APIRequestContext, sessionId: string): Promise<string> {
  const base = `/api/v1/sessions/${sessionId}`;
  const parts: string[] = [];
  for (let after = 0, more = true; more; ) {
    const page = (await (await request.get(`${base}/events?limit=500&after=${after}`)).json()) as { events: unknown[]; next_after: number; has_more: boolean };
    parts.push(...strings(page.events));
    [after, more] = [page.next_after, page.has_more];
  }
  for (const path of [base, `${base}/graph`, `${base}/supervisor`, `${base}/selection`, `${base}/hypotheses?limit=200`, `${base}/answer.json`, "/api/v1/memory/hypotheses?min_c=0"]) {
    const response = await request.get(path);
    if (response.ok()) parts.push(...strings(await response.json()));
  }
  for (const path of [`${base}/document`, `${base}/answer`]) {
    const response = await request.get(path);
    if (response.ok()) parts.push(await response.text());
  }
  return parts.join("\n").replace(/\s+/g, " ");
}

/** Latin-script runs on screen: visible text nodes, and the words an attribute gives a person. */
async function latinRunsOnScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const runs: string[] = [];
    const collect = (text: string) => {
      for (const m of text.matchAll(/[A-Za-z][A-Za-z'’.-]*(?:[ ,:;/()"“”«»]+[A-Za-z][A-Za-z'’.-]*)*/g)) runs.push(m[0].trim());
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript, [hidden], [aria-hidden='true']")) continue;
      if (parent.closest("option") && !parent.closest("option")!.parentElement?.matches("select")) continue;
      collect(node.textContent ?? "");
    }
    for (const element of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
      for (const name of ["aria-label", "title", "placeholder", "alt"]) collect(element.getAttribute(name) ?? "");
    return runs;
  });
}

async function expectNoEnglishChrome(page: Page, request: APIRequestContext, sessionId: string | null, name: string) {
  const corpus = await contentCorpus(request, sessionId ?? "none");
  const runs = await latinRunsOnScreen(page);
  const chrome = [...new Set(runs)].filter((run) => {
    if (SAME_IN_EVERY_LANGUAGE.test(run)) return false;
    // A run is content when each piece of it is a piece of what the server sent: the UI quotes it, cuts
    // it with "…", drops a trailing stop, or joins several with ", " or "; ".
    const pieces = run.split(/\s*[“”"«»();,]\s*/).map((p) => p.replace(/[.:;,]+$/, "").trim()).filter((p) => /[A-Za-z]{2,}/.test(p));
    return pieces.some((piece) => !SAME_IN_EVERY_LANGUAGE.test(piece) && !corpus.includes(piece));
  });
  expect(chrome, `English UI chrome on ${name}`).toEqual([]);
}

async function expectAxeClean(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${name}`,
  ).toEqual([]);
}

test.use({ locale: "en-GB", viewport: { width: 1440, height: 900 } });

test("switched to Chinese, a whole session shows no English chrome and no axe violation", async ({ page, request }) => {
  test.setTimeout(300_000);
  const seen = watchConsole(page);
  let sessionId: string | null = null;

  const check = async (name: ScreenName | string) => {
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    await expect(page.getByText(/^正在加载/)).toHaveCount(0);
    sessionId = /\/sessions\/([^/]+)/.exec(page.url())?.[1] ?? sessionId;
    await expectNoEnglishChrome(page, request, sessionId, name);
    await expectAxeClean(page, name);
  };

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Turn a hard problem into validated knowledge");
  await page.getByTestId("language-switcher").selectOption("zh");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("把难题变成经过验证的知识");

  await driveOfflineSession(page, PROBLEM, async (name) => {
    if (name === "00-home") return check(name); // the language was switched above; driveOfflineSession reloads home
    if (name === "02-explore") {
      await check(name);
      await page.getByRole("tab", { name: /^监督者/ }).click();
      await expect(page.getByTestId("supervisor-panel")).toBeVisible();
      await check("supervisor tab");
      await page.getByRole("tab", { name: "当前", exact: true }).click();
      return;
    }
    if (name === "03-claims") {
      await page.getByTestId("review-claims").getByText("本轮假设是如何产生的（谱系与超路径）").click();
      await expect(page.getByTestId("review-claims").getByRole("list", { name: "超路径" }).first()).toBeVisible();
    }
    if (name === "05-answer") await page.getByTestId("answer-methodology").locator("summary").click();
    await check(name);
  });

  await page.goto("/");
  await page.getByRole("link", { name: "记忆" }).click();
  await expect(page.getByTestId("memory-item").first()).toBeVisible();
  await check("memory");

  expect(seen.missingKeys).toEqual([]);
  expect(seen.cspViolations).toEqual([]);
});
