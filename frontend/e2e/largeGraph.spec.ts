/**
 * A 60-claim graph (a fixture served in place of the API's graph for a real session) is laid out
 * readably: every claim drawn, none overlapping, node text ≥ 12 px at the default zoom, edge labels
 * on a background, a minimap, zero axe violations. The screenshot is for a person to look at.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";

const STATUSES = ["validated", "qualified", "rejected", "superseded", "proposed"] as const;
const EDGE_TYPES = ["supports", "extends", "contradicts", "depends_on"] as const;
const TOPICS = ["triage", "night shifts", "bed turnover", "discharge timing", "lab turnaround", "handoffs"];

function sixtyClaimGraph() {
  const nodes = Array.from({ length: 60 }, (_, i) => ({
    id: `claim-${i}`,
    type: "claim" as const,
    label: `Claim ${i + 1}: ${TOPICS[i % TOPICS.length]} — shifting ${TOPICS[(i + 2) % TOPICS.length]} earlier cuts waiting time by a tenth in round ${Math.floor(i / 12) + 1}`,
    status: STATUSES[i % STATUSES.length]!,
    claim_type: "synthesis" as const,
    confidence: "emerging" as const,
    round: Math.floor(i / 12),
    score: 0.5 + (i % 5) / 10,
    x: i * 300,
    y: 0,
  }));
  const edges = [];
  for (let i = 3; i < 60; i++) edges.push({ id: `e-${i}`, source: `claim-${i - 3}`, target: `claim-${i}`, label: EDGE_TYPES[i % EDGE_TYPES.length]! });
  return { nodes, edges };
}

test("a 60-claim graph is drawn readably", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const created = await request.post("/api/v1/sessions", { data: { problem: "How can a hospital cut emergency wait times without more staff?", constraints: [] } });
  const session = (await created.json()) as { id: string };
  await page.route(`**/api/v1/sessions/${session.id}/graph`, (route) => route.fulfill({ json: sixtyClaimGraph() }));
  await page.goto(`/sessions/${session.id}`);
  await page.getByRole("tab", { name: "Knowledge graph" }).click();
  const graph = page.getByTestId("knowledge-graph");
  const nodes = graph.locator(".react-flow__node");
  await expect(nodes).toHaveCount(60);
  await expect(nodes.first()).toBeVisible(); // shown once laid out
  await expect(graph.locator(".react-flow__minimap")).toBeVisible();

  const boxes = await nodes.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    }),
  );
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, `claims ${i} and ${j} overlap`).toBe(false);
    }
  // Rendered text size: font size × the view's zoom.
  const smallest = await graph.evaluate((el) => {
    const viewport = el.querySelector<HTMLElement>(".react-flow__viewport")!;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const sizes = [...el.querySelectorAll<HTMLElement>(".react-flow__node p, .react-flow__node span")].map((t) => parseFloat(getComputedStyle(t).fontSize));
    return Math.min(...sizes) * zoom;
  });
  expect(smallest).toBeGreaterThanOrEqual(12);
  await expect(graph.locator(".react-flow__edge-textbg").first()).toBeAttached();

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  for (const dir of ["artifacts/screenshots/pages", process.env.SCREENS_DIR].filter((d): d is string => Boolean(d))) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: `${dir}/desktop-11-graph-60-claims.png` });
  }
  // Statuses are filters: hiding the rejected claims removes exactly those, showing them brings them back.
  const rejected = page.getByRole("group", { name: "Show claims by status" }).getByRole("button", { name: /rejected/ });
  await rejected.click();
  await expect(rejected).toHaveAttribute("aria-pressed", "false");
  await expect(nodes).toHaveCount(48);
  await rejected.click();
  await expect(nodes).toHaveCount(60);
  // Selecting a claim opens a readable side panel.
  await page.getByRole("list", { name: "Claims in the graph" }).getByRole("button").nth(10).click();
  await expect(page.getByTestId("claim-detail")).toBeVisible();
});
