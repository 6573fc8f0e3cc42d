/**
 * A Mermaid flowchart from the document, drawn as plain SVG (`parseMermaidFlowchart` +
 * `layoutFlowchart`; see there why not Mermaid itself): colours are classes and sizes attributes,
 * so nothing needs an inline style under the app's CSP. Loaded only when a document holds a
 * ```mermaid block. What the reader cannot draw is shown as its source, with a note.
 */
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FONT_SIZE, LINE_HEIGHT, layoutFlowchart, type PlacedEdge } from "../../document/layoutFlowchart";
import { parseMermaidFlowchart } from "../../document/parseMermaidFlowchart";
import { ScrollArea } from "../ui/ScrollArea";

function pathOf(edge: PlacedEdge): string {
  return edge.points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
}

export function MermaidDiagram({ source }: { source: string }) {
  const { t } = useTranslation();
  const markerId = `arrow-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const chart = useMemo(() => parseMermaidFlowchart(source), [source]);
  const layout = useMemo(() => (chart ? layoutFlowchart(chart) : null), [chart]);
  if (!chart || !layout)
    return (
      <figure className="my-3 space-y-1">
        <figcaption className="text-xs text-slate-600">{t("document.diagramUnsupported")}</figcaption>
        <pre tabIndex={0}>
          <code>{source}</code>
        </pre>
      </figure>
    );
  const labels = new Map(chart.nodes.map((n) => [n.id, n.label]));
  const description = chart.edges.map((e) => `${labels.get(e.source)} → ${e.label ? `${e.label} → ` : ""}${labels.get(e.target)}`).join("; ");
  return (
    <ScrollArea label={t("document.diagramLabel")} className="my-4 rounded-lg border border-slate-200 bg-slate-50 p-2">
      <svg
        data-testid="mermaid-diagram"
        role="img"
        aria-label={t("document.diagramLabel")}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        height={layout.height}
        fontSize={FONT_SIZE}
        className="mx-auto block max-w-none"
      >
        <desc>{description}</desc>
        <defs>
          <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0 L10 5 L0 10 z" className="fill-slate-500" />
          </marker>
        </defs>
        {layout.edges.map((edge, i) => (
          <path key={i} d={pathOf(edge)} fill="none" strokeWidth={1.6} strokeDasharray={edge.dashed ? "5 4" : undefined} markerEnd={`url(#${markerId})`} className="stroke-slate-500" />
        ))}
        {layout.edges.map((edge, i) =>
          edge.labelBox ? (
            <g key={`label-${i}`}>
              <rect x={edge.labelBox.x} y={edge.labelBox.y} width={edge.labelBox.width} height={edge.labelBox.height} rx={4} className="fill-white stroke-slate-300" />
              <text x={edge.labelBox.x + edge.labelBox.width / 2} y={edge.labelBox.y + edge.labelBox.height / 2} textAnchor="middle" dominantBaseline="central" className="fill-slate-700">
                {edge.label}
              </text>
            </g>
          ) : null,
        )}
        {layout.nodes.map((node) => (
          <g key={node.id}>
            <rect x={node.x} y={node.y} width={node.width} height={node.height} rx={8} strokeWidth={1.5} className="fill-indigo-50 stroke-indigo-600" />
            <text x={node.x + node.width / 2} y={node.y + (node.height - node.lines.length * LINE_HEIGHT) / 2} textAnchor="middle" className="fill-slate-900">
              {node.lines.map((line, i) => (
                <tspan key={i} x={node.x + node.width / 2} dy={i === 0 ? LINE_HEIGHT - 4 : LINE_HEIGHT}>
                  {line}
                </tspan>
              ))}
            </text>
          </g>
        ))}
      </svg>
    </ScrollArea>
  );
}
