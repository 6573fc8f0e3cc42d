/**
 * The API's knowledge graph → React Flow nodes and edges (pure): colours by claim status and by
 * edge type, edge labels on a background, arrowheads, and a legend. The graph is laid out in one
 * place, here in the browser: the API sends no positions, every node starts at the origin (hidden)
 * and `layoutGraph` places it once its size is measured.
 */
import type { Schemas } from "../api/client";

export type ApiGraph = Schemas["FlowGraphResponse"];
export type ApiNode = ApiGraph["nodes"][number];
export type ApiEdge = ApiGraph["edges"][number];

export interface ClaimNodeData extends Record<string, unknown> {
  readonly label: string;
  readonly status: string;
  readonly claimType: string;
  readonly confidence: string;
  readonly round: number;
  readonly score: number | null;
  readonly colors: StatusColors;
}

export interface StatusColors {
  readonly border: string;
  readonly background: string;
  readonly text: string;
}

export interface FlowNodeOut {
  readonly id: string;
  readonly type: "claim";
  readonly position: { x: number; y: number };
  readonly data: ClaimNodeData;
}

export interface FlowEdgeOut {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly label: string;
  readonly animated: boolean;
  readonly style: { stroke: string; strokeWidth: number; strokeDasharray?: string };
  readonly labelStyle: { fill: string; fontSize: number; fontWeight: number };
  /** Labels sit on an opaque background, so the line never runs through the words. */
  readonly labelShowBg: true;
  readonly labelBgStyle: { fill: string; stroke: string };
  readonly labelBgPadding: [number, number];
  readonly labelBgBorderRadius: number;
  readonly markerEnd: { type: "arrowclosed"; color: string };
}

// Typed over the API's enums: a status or edge type the backend adds fails the type check here.
export const STATUS_COLORS: Record<ApiNode["status"], StatusColors> = {
  validated: { border: "#059669", background: "#ecfdf5", text: "#064e3b" },
  qualified: { border: "#d97706", background: "#fffbeb", text: "#78350f" },
  rejected: { border: "#e11d48", background: "#fff1f2", text: "#881337" },
  superseded: { border: "#94a3b8", background: "#f8fafc", text: "#475569" },
  proposed: { border: "#4f46e5", background: "#eef2ff", text: "#312e81" },
};

export const EDGE_COLORS: Record<ApiEdge["label"], string> = {
  supports: "#059669",
  contradicts: "#e11d48",
  extends: "#4f46e5",
  supersedes: "#64748b",
  depends_on: "#0284c7",
  merged_from: "#a855f7",
};

export function toFlowElements(graph: ApiGraph): { nodes: FlowNodeOut[]; edges: FlowEdgeOut[] } {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const nodes = graph.nodes.map(toNode);
  // An edge to a node the graph does not hold would crash the renderer; the API never sends one,
  // but a stale cache could, so drop it rather than break the picture.
  const edges = graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)).map(toEdge);
  return { nodes, edges };
}

function toNode(node: ApiNode): FlowNodeOut {
  return {
    id: node.id,
    type: "claim",
    position: { x: 0, y: 0 },
    data: {
      label: node.label,
      status: node.status,
      claimType: node.claim_type,
      confidence: node.confidence,
      round: node.round,
      score: node.score ?? null,
      colors: STATUS_COLORS[node.status],
    },
  };
}

function toEdge(edge: ApiEdge): FlowEdgeOut {
  const color = EDGE_COLORS[edge.label];
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    label: edge.label.replace("_", " "),
    animated: edge.label === "contradicts",
    style: { stroke: color, strokeWidth: 2, ...(edge.label === "contradicts" ? { strokeDasharray: "6 4" } : {}) },
    labelStyle: { fill: color, fontSize: 13, fontWeight: 600 },
    labelShowBg: true,
    labelBgStyle: { fill: "#ffffff", stroke: color },
    labelBgPadding: [6, 3],
    labelBgBorderRadius: 4,
    markerEnd: { type: "arrowclosed", color },
  };
}

/** Counts for a one-line summary under the graph ("5 claims · 3 validated · 4 links"). */
export function summarizeGraph(graph: ApiGraph): { claims: number; links: number; byStatus: Record<string, number> } {
  const byStatus: Record<string, number> = {};
  for (const n of graph.nodes) byStatus[n.status] = (byStatus[n.status] ?? 0) + 1;
  return { claims: graph.nodes.length, links: graph.edges.length, byStatus };
}
