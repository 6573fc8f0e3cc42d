import { describe, expect, test } from "vitest";
import { recordedOf } from "../../test/sessionEvents";
import { EDGE_COLORS, STATUS_COLORS, summarizeGraph, toFlowElements, type ApiGraph } from "../toFlowElements";

const graph: ApiGraph = {
  nodes: [
    { id: "a", type: "claim", label: "Pool the triage nurses", claim_type: "synthesis", status: "validated", confidence: "emerging", round: 0, score: 0.72 },
    { id: "b", type: "claim", label: "Only at night", claim_type: "synthesis", status: "rejected", confidence: "speculative", round: 1, score: null },
  ],
  edges: [
    { id: "e1", source: "b", target: "a", label: "contradicts" },
    { id: "e2", source: "b", target: "ghost", label: "supports" },
  ],
};

describe("toFlowElements", () => {
  test("starts every node at the origin (layoutGraph places them) and colours nodes by status", () => {
    const { nodes } = toFlowElements(graph);
    expect(nodes.map((n) => [n.id, n.position])).toEqual([
      ["a", { x: 0, y: 0 }],
      ["b", { x: 0, y: 0 }],
    ]);
    expect(nodes[0]!.data.colors).toEqual(STATUS_COLORS.validated);
    expect(nodes[1]!.data).toMatchObject({ status: "rejected", score: null, round: 1 });
  });

  test("types and colours edges, and dashes and animates contradictions", () => {
    const [edge] = toFlowElements(graph).edges;
    expect(edge).toMatchObject({ source: "b", target: "a", label: "contradicts", animated: true });
    expect(edge!.style.stroke).toBe(EDGE_COLORS.contradicts);
    expect(edge!.style.strokeDasharray).toBeDefined();
    expect(edge!.markerEnd.color).toBe(EDGE_COLORS.contradicts);
  });

  test("drops an edge whose end is not a node instead of breaking the picture", () => {
    expect(toFlowElements(graph).edges.map((e) => e.id)).toEqual(["e1"]);
  });

  test("works on the graph of a recorded build review", () => {
    const recorded = recordedOf("review_build").data.graph;
    const flow = toFlowElements(recorded);
    expect(flow.nodes).toHaveLength(recorded.nodes.length);
    expect(flow.edges.length).toBeGreaterThan(0);
  });

  test("summarizes counts by status", () => {
    expect(summarizeGraph(graph)).toEqual({ claims: 2, links: 2, byStatus: { validated: 1, rejected: 1 } });
  });
});
