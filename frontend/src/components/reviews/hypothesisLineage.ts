/**
 * Pure helpers for showing how a hypothesis was made: its ancestry through the pool (the pool is a
 * graph: every hypothesis names its operator and parents), a hyperpath as an alternating chain of
 * nodes and relations, and the words for operators and SEARCH totals. No React, no fetching.
 *
 * Invariants: ancestry never loops (a hypothesis is visited once) and names a missing parent as
 * missing instead of dropping it; a chain starts and ends with a node and alternates node, relation.
 */
import type { Schemas } from "../../api/client";

export type PoolHypothesis = Schemas["HypothesisOut"];
export type HyperpathView = Schemas["HyperpathOut"];
export type SearchView = Schemas["SearchSummaryView"];

export const OPERATOR_LABELS: Readonly<Record<string, string>> = {
  biso: "Cross-domain analogy (BISO)",
  refine: "Refine",
  variant: "Variant",
  combine: "Combine",
  oppose: "Oppose",
  extreme: "Extreme",
  hyperpath_expand: "Hyperpath expand (HKG)",
  hyperbridge: "Hyperbridge (HKG)",
  blend_expand: "Conceptual blend",
  transform_space: "Transform the concept space",
};

export function operatorLabel(operator: string): string {
  return OPERATOR_LABELS[operator] ?? operator.replaceAll("_", " ");
}

export interface LineageNode {
  readonly id: string;
  readonly title: string | null; // null: the parent is not in the pool that was read
  readonly operator: string | null;
  readonly depth: number; // 0 = the hypothesis itself, 1 = its parents, …
}

/** The hypothesis and its ancestors, breadth first (parents in their listed order), each once. */
export function ancestry(id: string, pool: ReadonlyMap<string, PoolHypothesis>, maxDepth = 6): LineageNode[] {
  const seen = new Set<string>([id]);
  const out: LineageNode[] = [];
  let level: string[] = [id];
  for (let depth = 0; level.length > 0 && depth <= maxDepth; depth += 1) {
    const next: string[] = [];
    for (const current of level) {
      const h = pool.get(current);
      out.push({ id: current, title: h?.title ?? null, operator: h?.operator ?? null, depth });
      for (const parent of h?.parents ?? []) {
        if (!seen.has(parent)) {
          seen.add(parent);
          next.push(parent);
        }
      }
    }
    level = next;
  }
  return out;
}

export type ChainItem =
  | { readonly kind: "node"; readonly key: string; readonly label: string }
  | { readonly kind: "relation"; readonly key: string; readonly relation: string; readonly hyperedgeId: string; readonly step: string | null };

/** One path as node → relation → node … → node; a step's shared nodes form the node after it. */
export function hyperpathChain(trace: HyperpathView, pathIndex = 0): ChainItem[] {
  const path = trace.paths[pathIndex];
  if (!path) return [];
  const steps = new Map(trace.chain.map((link) => [link.hyperedge_id, link.step]));
  const items: ChainItem[] = [{ kind: "node", key: `start-${path.start.id}`, label: path.start.label }];
  path.steps.forEach((step, i) => {
    items.push({ kind: "relation", key: `edge-${i}-${step.hyperedge_id}`, relation: step.relation, hyperedgeId: step.hyperedge_id, step: steps.get(step.hyperedge_id) ?? null });
    const last = i === path.steps.length - 1;
    if (!last && step.via.length > 0) items.push({ kind: "node", key: `via-${i}`, label: step.via.map((v) => v.label).join(", ") });
  });
  items.push({ kind: "node", key: `end-${path.end.id}`, label: path.end.label });
  return items;
}

/** "3 refine, 2 oppose, …" in descending count, then by name. */
export function operatorCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return entries.map(([op, n]) => `${n} ${operatorLabel(op).toLowerCase()}`).join(", ");
}

/** One sentence of what the round's SEARCH did. */
export function searchSummaryText(search: SearchView): string {
  const parts = [
    `${search.children} new hypotheses from ${search.seeds.length} seeds in ${search.calls} model calls`
      + (search.depth > 1 ? ` over ${search.depth} SEARCH rounds (later rounds expand earlier children)` : ""),
    search.degraded ? `${search.degraded} degraded to refine/variant by quota` : "",
    search.ungrounded ? `${search.ungrounded} found no hyperpath (no structural evidence)` : "",
    search.failed ? `${search.failed} failed` : "",
  ];
  return `${parts.filter(Boolean).join("; ")} (profile ${search.profile}).`;
}
