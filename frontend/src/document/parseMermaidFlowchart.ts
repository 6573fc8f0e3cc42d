/**
 * Reads the flowchart subset of Mermaid (pure, tested): `graph|flowchart LR|RL|TD|TB|BT`, node
 * definitions `A["label"]`, `A[label]`, `A("label")`, `A{label}`, and edges `A --> B`,
 * `A -->|label| B`, `A -- label --> B`, `A --- B`, `A -.-> B`, `A ==> B`, with nodes defined inline
 * on either side. Mermaid's entity codes (`#lt;`, `#gt;`, `#quot;`, `#35;`) are decoded.
 *
 * Why not Mermaid itself: its renderer injects a `<style>` element and inline `style` attributes
 * into every diagram, which the app's Content-Security-Policy (`style-src 'self'`) blocks — the
 * diagram came out as black boxes with 52 CSP violations. The Knowledge Document only ever holds
 * flowcharts (`render_knowledge_document._graph`), so this reader plus dagre draws them as plain
 * SVG; anything else (another diagram type, a line this reader does not know) returns null and is
 * shown as its source.
 */
export type FlowDirection = "LR" | "RL" | "TB" | "BT";

export interface FlowNode {
  readonly id: string;
  readonly label: string;
}

export interface FlowEdge {
  readonly source: string;
  readonly target: string;
  readonly label: string;
  readonly dashed: boolean;
}

export interface Flowchart {
  readonly direction: FlowDirection;
  readonly nodes: readonly FlowNode[];
  readonly edges: readonly FlowEdge[];
}

const HEADER = /^(?:graph|flowchart)\s+(LR|RL|TD|TB|BT)\s*;?$/i;
const ID = String.raw`[A-Za-z0-9_][\w-]*`;
const SHAPE = String.raw`(?:\[\s*"([^"]*)"\s*\]|\[([^\]"]*)\]|\(\s*"([^"]*)"\s*\)|\(([^)"]*)\)|\{\s*"([^"]*)"\s*\}|\{([^}"]*)\})`;
const NODE = new RegExp(String.raw`^(${ID})\s*${SHAPE}?`);
const ARROW = /^(?:-->|---|-\.->|-\.-|==>|===)\s*(?:\|([^|]*)\|)?|^--\s+([^-]+?)\s+-->/;
const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", quot: '"', amp: "&", "35": "#" };

export function decodeMermaidText(text: string): string {
  return text.replace(/#(\w+);/g, (whole, code: string) => ENTITIES[code] ?? (/^\d+$/.test(code) ? String.fromCodePoint(Number(code)) : whole)).trim();
}

interface Cursor {
  rest: string;
}

function readNode(cursor: Cursor, nodes: Map<string, string>): string | null {
  const match = NODE.exec(cursor.rest);
  if (!match) return null;
  const id = match[1]!;
  const label = match.slice(2).find((group) => group !== undefined);
  if (label !== undefined) nodes.set(id, decodeMermaidText(label));
  else if (!nodes.has(id)) nodes.set(id, id);
  cursor.rest = cursor.rest.slice(match[0].length).trimStart();
  return id;
}

function readLine(line: string, nodes: Map<string, string>, edges: FlowEdge[]): boolean {
  const cursor = { rest: line };
  let source = readNode(cursor, nodes);
  if (source === null) return false;
  while (cursor.rest) {
    const arrow = ARROW.exec(cursor.rest);
    if (!arrow) return false;
    cursor.rest = cursor.rest.slice(arrow[0].length).trimStart();
    const target = readNode(cursor, nodes);
    if (target === null) return false;
    edges.push({ source, target, label: decodeMermaidText(arrow[1] ?? arrow[2] ?? ""), dashed: arrow[0].includes(".") });
    source = target;
  }
  return true;
}

/** The flowchart a Mermaid source describes, or null when it is not a flowchart this reader knows. */
export function parseMermaidFlowchart(source: string): Flowchart | null {
  const lines = source
    .split("\n")
    .map((line) => line.replace(/%%.*$/, "").trim().replace(/;$/, ""))
    .filter(Boolean);
  const header = HEADER.exec(lines[0] ?? "");
  if (!header) return null;
  const direction = header[1]!.toUpperCase().replace("TD", "TB") as FlowDirection;
  const nodes = new Map<string, string>();
  const edges: FlowEdge[] = [];
  for (const line of lines.slice(1)) if (!readLine(line, nodes, edges)) return null;
  if (nodes.size === 0) return null;
  return { direction, nodes: [...nodes].map(([id, label]) => ({ id, label })), edges };
}
