/**
 * Pure helpers for showing how a hypothesis was made: its ancestry through the pool (the pool is a
 * graph: every hypothesis names its operator and parents), a hyperpath as an alternating chain of
 * nodes and relations, and the words for operators and SEARCH totals. No React, no fetching.
 *
 * Invariants: ancestry never loops (a hypothesis is visited once) and names a missing parent as
 * missing instead of dropping it; a chain starts and ends with a node and alternates node, relation.
 */
import type { ParseKeys } from "i18next";
import type { Schemas } from "../../api/client";
import { currentLanguage, i18n } from "../../i18n/i18n";

export type PoolHypothesis = Schemas["HypothesisOut"];
export type HyperpathView = Schemas["HyperpathOut"];
export type SearchView = Schemas["SearchSummaryView"];
/** How a hypothesis was made: "biso" or a SEARCH operator (the API's enum). */
export type Operator = Schemas["HypothesisOperator"];

// Typed over the API's enum: an operator the backend adds fails the type check here until it has words.
const OPERATOR_KEYS: Readonly<Record<Operator, ParseKeys>> = {
  biso: "operator.biso",
  refine: "operator.refine",
  variant: "operator.variant",
  combine: "operator.combine",
  oppose: "operator.oppose",
  extreme: "operator.extreme",
  hyperpath_expand: "operator.hyperpath_expand",
  hyperbridge: "operator.hyperbridge",
  blend_expand: "operator.blend_expand",
  transform_space: "operator.transform_space",
};

/** An operator's name in the UI's language; an operator the UI does not know reads as its id. */
export function operatorLabel(operator: string): string {
  return Object.hasOwn(OPERATOR_KEYS, operator) ? i18n.t(OPERATOR_KEYS[operator as Operator]) : operator.replaceAll("_", " ");
}

export interface LineageNode {
  readonly id: string;
  readonly title: string | null; // null: the parent is not in the pool that was read
  readonly operator: Operator | null;
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
  const label = (op: string) => operatorLabel(op).toLocaleLowerCase(currentLanguage());
  return entries.map(([op, n]) => i18n.t("lineage.operatorCount", { n, label: label(op) })).join(i18n.t("lineage.listSeparator"));
}

/** One sentence of what the round's SEARCH did. */
export function searchSummaryText(search: SearchView): string {
  const parts = [
    i18n.t("lineage.searchChildren", { children: search.children, seeds: search.seeds.length, calls: search.calls }) +
      (search.depth > 1 ? i18n.t("lineage.searchDepth", { n: search.depth }) : ""),
    search.degraded ? i18n.t("lineage.searchDegraded", { n: search.degraded }) : "",
    search.ungrounded ? i18n.t("lineage.searchUngrounded", { n: search.ungrounded }) : "",
    search.failed ? i18n.t("lineage.searchFailed", { n: search.failed }) : "",
  ];
  return i18n.t("lineage.searchSummary", { parts: parts.filter(Boolean).join(i18n.t("lineage.clauseSeparator")), profile: search.profile });
}
