import { describe, expect, test } from "vitest";
import { layoutGraph, type LayoutEdge, type LayoutNode } from "../layoutGraph";

const node = (id: string, height = 96): LayoutNode => ({ id, width: 280, height });
const edge = (source: string, target: string, label = "supports"): LayoutEdge => ({ id: `${source}-${target}`, source, target, label });

/** A 60-claim graph like a long session's: rounds of claims, each round extending or supporting the last. */
function sixtyClaims(): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const nodes = Array.from({ length: 60 }, (_, i) => node(`c${String(i).padStart(2, "0")}`, 80 + (i % 4) * 20));
  const edges: LayoutEdge[] = [];
  for (let i = 3; i < 60; i++) {
    edges.push(edge(nodes[i - 3]!.id, nodes[i]!.id, i % 2 ? "extends" : "supports"));
    if (i % 5 === 0) edges.push(edge(nodes[i - 5]!.id, nodes[i]!.id, "contradicts"));
  }
  return { nodes, edges };
}

function overlaps(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function boxes(nodes: readonly LayoutNode[], positions: Map<string, { x: number; y: number }>) {
  return nodes.map((n) => ({ id: n.id, ...positions.get(n.id)!, w: n.width, h: n.height }));
}

describe("layoutGraph", () => {
  test("a chain with a skip link does not hide the long edge behind the middle claim", () => {
    const nodes = [node("a"), node("b"), node("c")];
    const positions = layoutGraph(nodes, [edge("a", "b"), edge("b", "c"), edge("a", "c", "extends")]);
    const [a, b, c] = ["a", "b", "c"].map((id) => positions.get(id)!);
    expect(a!.x).toBeLessThan(b!.x);
    expect(b!.x).toBeLessThan(c!.x);
    // Not all in one row: the a→c edge is routed beside b, not through it.
    expect(new Set([a!.y, b!.y, c!.y]).size).toBeGreaterThan(1);
  });

  test("sixty claims: every claim placed, none overlapping, every link pointing rightwards", () => {
    const { nodes, edges } = sixtyClaims();
    const positions = layoutGraph(nodes, edges);
    expect(positions.size).toBe(60);
    const placed = boxes(nodes, positions);
    for (let i = 0; i < placed.length; i++)
      for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i]!, placed[j]!), `${placed[i]!.id} overlaps ${placed[j]!.id}`).toBe(false);
    for (const e of edges) expect(positions.get(e.source)!.x).toBeLessThan(positions.get(e.target)!.x);
  });

  test("uses each claim's measured size: a taller claim gets more room", () => {
    const short = layoutGraph([node("a", 60), node("b", 60)], []);
    const tall = layoutGraph([node("a", 300), node("b", 300)], []);
    const gap = (p: Map<string, { x: number; y: number }>) => Math.abs(p.get("a")!.y - p.get("b")!.y) + Math.abs(p.get("a")!.x - p.get("b")!.x);
    expect(gap(tall)).toBeGreaterThan(gap(short));
  });

  test("the same graph in another order gets the same picture", () => {
    const { nodes, edges } = sixtyClaims();
    const once = layoutGraph(nodes, edges);
    const again = layoutGraph([...nodes].reverse(), [...edges].reverse());
    expect(Object.fromEntries(again)).toEqual(Object.fromEntries(once));
  });

  test("links to unknown claims and self-links are ignored rather than breaking the layout", () => {
    const positions = layoutGraph([node("a"), node("b")], [edge("a", "ghost"), edge("a", "a"), edge("a", "b")]);
    expect(positions.get("a")!.x).toBeLessThan(positions.get("b")!.x);
  });
});

test("a Chinese edge label gets the room of its wide characters", () => {
  const nodes = [
    { id: "a", width: 200, height: 60 },
    { id: "b", width: 200, height: 60 },
  ];
  const gap = (label: string) => {
    const p = layoutGraph(nodes, [{ id: "e", source: "a", target: "b", label }]);
    return p.get("b")!.x - p.get("a")!.x;
  };
  expect(gap("支持支持支持支持")).toBeGreaterThan(gap("supports"));
});
