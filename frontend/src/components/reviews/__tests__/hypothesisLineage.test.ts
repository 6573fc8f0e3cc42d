import { describe, expect, it } from "vitest";
import { ancestry, hyperpathChain, operatorCounts, operatorLabel, searchSummaryText, type SearchView } from "../hypothesisLineage";
import { TRACE, hypothesis } from "./fixtures/lineageFixtures";

describe("ancestry", () => {
  it("lists the hypothesis, then its parents and their parents breadth first, each once", () => {
    const pool = new Map(
      [hypothesis("a", "biso"), hypothesis("b", "biso"), hypothesis("c", "combine", ["a", "b"]), hypothesis("d", "refine", ["c", "a"])].map((h) => [h.id, h]),
    );
    expect(ancestry("d", pool).map((n) => [n.id, n.depth])).toEqual([
      ["d", 0],
      ["c", 1],
      ["a", 1],
      ["b", 2],
    ]);
  });

  it("names a parent missing from the pool instead of dropping it, and never loops", () => {
    const pool = new Map([hypothesis("x", "refine", ["gone", "y"]), hypothesis("y", "variant", ["x"])].map((h) => [h.id, h]));
    const nodes = ancestry("x", pool);
    expect(nodes.map((n) => n.id)).toEqual(["x", "gone", "y"]);
    expect(nodes[1]).toMatchObject({ title: null, operator: null });
  });
});

describe("hyperpathChain", () => {
  it("alternates nodes and relations, joins a step's shared nodes, and attaches each relation's chain step", () => {
    const chain = hyperpathChain(TRACE);
    expect(chain.map((i) => i.kind)).toEqual(["node", "relation", "node", "relation", "node"]);
    expect(chain.map((i) => (i.kind === "node" ? i.label : i.relation))).toEqual(["buffer", "mechanism", "delay, grow", "cued_by", "queue"]);
    expect(chain[1]).toMatchObject({ hyperedgeId: "e1", step: "buffers delay the surge" });
    expect(chain[3]).toMatchObject({ hyperedgeId: "e2", step: null });
  });

  it("is empty when there is no path", () => {
    expect(hyperpathChain({ ...TRACE, status: "hkg_path_not_found", paths: [], chain: [] })).toEqual([]);
  });
});

describe("words", () => {
  it("labels known operators and spells unknown ones", () => {
    expect(operatorLabel("blend_expand")).toBe("Conceptual blend");
    expect(operatorLabel("new_thing")).toBe("new thing");
    expect(operatorCounts({ refine: 1, oppose: 3, combine: 1 })).toBe("3 oppose, 1 combine, 1 refine");
  });

  it("summarises a round, naming degradation and missing hyperpaths only when they happened", () => {
    const search: SearchView = {
      round: 0, profile: "research", method: "mome", seeds: ["a", "b"], eligible: 4, calls: 9, children: 7, operators: {},
      degraded: 2, skipped: 0, failed: 0, coverage_ratio: 0.5, ungrounded: 1, concept_space: "x", depth: 1, stalled: false,
    };
    expect(searchSummaryText(search)).toBe(
      "7 new hypotheses from 2 seeds in 9 model calls; 2 degraded to refine/variant by quota; 1 found no hyperpath (no structural evidence) (profile research).",
    );
    expect(searchSummaryText({ ...search, degraded: 0, ungrounded: 0 })).toBe("7 new hypotheses from 2 seeds in 9 model calls (profile research).");
    expect(searchSummaryText({ ...search, degraded: 0, ungrounded: 0, depth: 2 })).toBe(
      "7 new hypotheses from 2 seeds in 9 model calls over 2 SEARCH rounds (later rounds expand earlier children) (profile research).",
    );
  });
});
