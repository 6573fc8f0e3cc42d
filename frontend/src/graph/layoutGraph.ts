/**
 * Layered left-to-right layout of the knowledge graph, computed in the browser from each node's
 * measured size (pure over dagre: same input, same positions). The one layout of the graph: the API
 * sends claims and links only (it cannot know how big a box or a label is drawn).
 *
 * Design: a fixed grid put linked claims in one row (all y = 0), so an edge between the
 * first and the third node ran hidden behind the second. Dagre ranks nodes along the edges, orders
 * each rank to reduce crossings and routes around nodes; edge labels get their own space (dagre
 * places them as dummy nodes), so a label never sits on a claim. Nodes with no edge at all are
 * laid out too — as their own components, stacked.
 */
import dagre from "@dagrejs/dagre";
import { textUnits } from "../document/layoutFlowchart";

export interface LayoutNode {
  readonly id: string;
  readonly width: number;
  readonly height: number;
}

export interface LayoutEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  /** Label text; its box is estimated from its length at the label's font size (a CJK character counts twice). */
  readonly label?: string;
}

export interface Position {
  readonly x: number;
  readonly y: number;
}

export const LAYOUT_SPACING = { nodesep: 36, ranksep: 90, edgesep: 16, marginx: 16, marginy: 16 } as const;
const LABEL_CHAR_WIDTH = 7.5;
const LABEL_HEIGHT = 22;

/** Top-left corner of each node (React Flow's convention), keyed by node id. */
export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Map<string, Position> {
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: "LR", ...LAYOUT_SPACING });
  graph.setDefaultEdgeLabel(() => ({}));
  // Sorted input: dagre's result depends on insertion order; the API's order may vary between reads.
  for (const node of [...nodes].sort((a, b) => a.id.localeCompare(b.id))) graph.setNode(node.id, { width: node.width, height: node.height });
  const known = new Set(nodes.map((n) => n.id));
  for (const edge of [...edges].sort((a, b) => a.id.localeCompare(b.id))) {
    if (!known.has(edge.source) || !known.has(edge.target) || edge.source === edge.target) continue;
    const width = edge.label ? textUnits(edge.label) * LABEL_CHAR_WIDTH + 16 : 0;
    graph.setEdge(edge.source, edge.target, { width, height: edge.label ? LABEL_HEIGHT : 0, labelpos: "c" }, edge.id);
  }
  dagre.layout(graph);
  const positions = new Map<string, Position>();
  for (const node of nodes) {
    const placed = graph.node(node.id);
    positions.set(node.id, { x: Math.round(placed.x - node.width / 2), y: Math.round(placed.y - node.height / 2) });
  }
  return positions;
}
