/**
 * Places a parsed flowchart for drawing as SVG (pure over dagre: same chart, same picture). Node
 * labels wrap to a readable width (wide CJK characters count double); sizes come from the text's
 * estimated width at the diagram's 13 px font, since an SVG not yet drawn cannot be measured.
 */
import dagre from "@dagrejs/dagre";
import type { FlowDirection, Flowchart } from "./parseMermaidFlowchart";

export const FONT_SIZE = 13;
export const LINE_HEIGHT = 17;
const CHAR_WIDTH = 7; // average Latin character at 13 px; a wide (CJK) character counts as two
const MAX_LINE_UNITS = 26;
const PADDING_X = 12;
const PADDING_Y = 9;

export interface PlacedNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly lines: readonly string[];
}

export interface PlacedEdge {
  readonly points: readonly { x: number; y: number }[];
  readonly label: string;
  readonly labelBox: { x: number; y: number; width: number; height: number } | null;
  readonly dashed: boolean;
}

export interface FlowchartLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

const isWide = (char: string) => /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(char);
export const textUnits = (text: string) => [...text].reduce((sum, char) => sum + (isWide(char) ? 2 : 1), 0);

/** Lines of at most `max` units: break at spaces, or anywhere in a word (or CJK text) too long for a line. */
export function wrapLabel(text: string, max = MAX_LINE_UNITS): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textUnits(candidate) <= max) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const char of word) {
      if (textUnits(line + char) > max) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [""];
}

const RANKDIR: Readonly<Record<FlowDirection, string>> = { LR: "LR", RL: "RL", TB: "TB", BT: "BT" };

export function layoutFlowchart(chart: Flowchart): FlowchartLayout {
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: RANKDIR[chart.direction], nodesep: 28, ranksep: 56, edgesep: 12, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  const wrapped = new Map(chart.nodes.map((n) => [n.id, wrapLabel(n.label)]));
  for (const node of chart.nodes) {
    const lines = wrapped.get(node.id)!;
    const width = Math.max(...lines.map(textUnits), 4) * CHAR_WIDTH + 2 * PADDING_X;
    graph.setNode(node.id, { width, height: lines.length * LINE_HEIGHT + 2 * PADDING_Y });
  }
  chart.edges.forEach((edge, i) => {
    const width = edge.label ? textUnits(edge.label) * CHAR_WIDTH + 12 : 0;
    graph.setEdge(edge.source, edge.target, { width, height: edge.label ? LINE_HEIGHT + 4 : 0, labelpos: "c" }, `e${i}`);
  });
  dagre.layout(graph);
  const nodes = chart.nodes.map((n): PlacedNode => {
    const placed = graph.node(n.id);
    return { id: n.id, x: placed.x - placed.width / 2, y: placed.y - placed.height / 2, width: placed.width, height: placed.height, lines: wrapped.get(n.id)! };
  });
  const edges = chart.edges.map((edge, i): PlacedEdge => {
    const placed = graph.edge({ v: edge.source, w: edge.target, name: `e${i}` });
    const labelBox =
      edge.label && placed.x !== undefined && placed.y !== undefined
        ? { x: placed.x - placed.width / 2, y: placed.y - placed.height / 2, width: placed.width, height: placed.height }
        : null;
    return { points: placed.points ?? [], label: edge.label, labelBox, dashed: edge.dashed };
  });
  const size = graph.graph();
  return { width: Math.ceil(size.width ?? 0), height: Math.ceil(size.height ?? 0), nodes, edges };
}
