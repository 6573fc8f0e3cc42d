import {
  Background,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { layoutGraph } from "../../graph/layoutGraph";
import { EDGE_COLORS, STATUS_COLORS, summarizeGraph, toFlowElements, type ApiGraph, type ClaimNodeData } from "../../graph/toFlowElements";

/** Fit the graph, but never so small that text drops under 12 px (node text is 14 px: 14 × 0.86 ≥ 12). */
const FIT_VIEW = { padding: 0.04, minZoom: 0.86, maxZoom: 1.25 } as const;
/** From this many claims on, a minimap helps find one's way in a graph larger than the panel. */
const MINIMAP_FROM = 12;

type ClaimNode = Node<ClaimNodeData, "claim">;

function ClaimNodeView({ data, selected }: NodeProps<ClaimNode>) {
  const { t } = useTranslation();
  return (
    <div
      className="w-64 rounded-lg border-2 px-3 py-2 text-left text-sm shadow-sm"
      style={{ borderColor: data.colors.border, background: data.colors.background, color: data.colors.text, outline: selected ? `3px solid ${data.colors.border}55` : undefined }}
    >
      <Handle type="target" position={Position.Left} />
      <div className="mb-1 flex items-center justify-between gap-2 font-semibold">
        <span>{t(`claimStatus.${data.status as ClaimStatus}`)}</span>
        <span>
          {t("graph.round", { round: data.round + 1 })}
          {data.score !== null ? ` · ${data.score.toFixed(2)}` : ""}
        </span>
      </div>
      <p className="line-clamp-3 leading-snug" title={data.label}>
        {data.label}
      </p>
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

const NODE_TYPES = { claim: ClaimNodeView };

/**
 * The knowledge graph: claims as nodes coloured by status, typed coloured edges; click a claim for
 * details. The same claims are listed as buttons under it, for keyboards, screen readers and phones.
 * Laid out in the browser (layered, left to right) from the nodes' measured sizes: the nodes are
 * rendered hidden first, measured by React Flow (its "dimensions" changes), placed by
 * `layoutGraph`, then shown and fitted. A different graph re-measures only its new nodes.
 */
export function KnowledgeGraph({ graph, onSelect, selectedId }: { graph: ApiGraph; onSelect: (id: string) => void; selectedId: string | null }) {
  const { t } = useTranslation();
  const [hiddenStatuses, setHiddenStatuses] = useState<ReadonlySet<ClaimStatus>>(new Set());
  const shown = useMemo(() => withoutStatuses(graph, hiddenStatuses), [graph, hiddenStatuses]);
  if (!graph.nodes.length)
    return <p className="p-6 text-center text-sm text-slate-500">{t("graph.empty")}</p>;
  const toggle = (status: ClaimStatus) =>
    setHiddenStatuses((previous) => {
      const next = new Set(previous);
      if (!next.delete(status)) next.add(status);
      return next;
    });
  return (
    <div className="space-y-2">
      <div className="h-[420px] rounded-lg border border-slate-200 bg-white sm:h-[520px]" data-testid="knowledge-graph">
        {shown.nodes.length ? (
          <ReactFlowProvider>
            <LaidOutFlow graph={shown} onSelect={onSelect} selectedId={selectedId} />
          </ReactFlowProvider>
        ) : (
          <p className="p-6 text-center text-sm text-slate-500">{t("graph.allFiltered")}</p>
        )}
      </div>
      <GraphLegend graph={graph} hidden={hiddenStatuses} onToggle={toggle} />
      <ClaimButtons graph={shown} onSelect={onSelect} selectedId={selectedId} />
    </div>
  );
}

type ClaimStatus = ApiGraph["nodes"][number]["status"];

/** The graph without the claims of the hidden statuses, and without the links that touched them. */
function withoutStatuses(graph: ApiGraph, hidden: ReadonlySet<ClaimStatus>): ApiGraph {
  if (!hidden.size) return graph;
  const nodes = graph.nodes.filter((n) => !hidden.has(n.status));
  const kept = new Set(nodes.map((n) => n.id));
  return { nodes, edges: graph.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
}

function LaidOutFlow({ graph, onSelect, selectedId }: { graph: ApiGraph; onSelect: (id: string) => void; selectedId: string | null }) {
  const { t } = useTranslation();
  const flow = useMemo(() => toFlowElements(graph), [graph]);
  // Sizes the renderer measured (its "dimensions" changes); the layout waits for every node's.
  const [sizes, setSizes] = useState<ReadonlyMap<string, { width: number; height: number }>>(new Map());
  const { fitView } = useReactFlow();
  const panelWidth = useStore((state) => state.width);
  const onNodesChange = useCallback((changes: NodeChange<ClaimNode>[]) => {
    const measured = changes.flatMap((c) => (c.type === "dimensions" && c.dimensions ? [{ id: c.id, size: c.dimensions }] : []));
    if (!measured.length) return;
    setSizes((previous) => {
      const next = new Map(previous);
      for (const { id, size } of measured) next.set(id, size);
      return next;
    });
  }, []);
  const positions = useMemo(() => {
    const measured = flow.nodes.map((n) => ({ id: n.id, ...sizes.get(n.id)! }));
    if (!flow.nodes.every((n) => sizes.has(n.id))) return null;
    return layoutGraph(measured, flow.edges);
  }, [flow, sizes]);

  useEffect(() => {
    if (!positions) return;
    // A graph too wide to fit readably opens at its beginning (the first rounds), not its middle.
    const frame = requestAnimationFrame(() => void fitView({ ...FIT_VIEW, nodes: firstRanks(positions, sizes, panelWidth) }));
    return () => cancelAnimationFrame(frame);
    // Once per layout (not on every resize, which would undo the reader's own pan and zoom).
  }, [positions, fitView]);

  const nodes = useMemo(
    () =>
      flow.nodes.map(
        (n): ClaimNode => ({
          ...n,
          position: positions?.get(n.id) ?? n.position,
          measured: sizes.get(n.id),
          selected: n.id === selectedId,
          ...(positions ? {} : { style: { visibility: "hidden" } }),
        }),
      ),
    [flow.nodes, positions, sizes, selectedId],
  );
  const edgeTypes = useMemo(() => new Map(graph.edges.map((e) => [e.id, e.label])), [graph.edges]);
  const titles = useMemo(() => new Map(flow.nodes.map((n) => [n.id, n.data.label])), [flow.nodes]);
  const edges = useMemo(
    () =>
      flow.edges.map((e): Edge => {
        const type = edgeTypes.get(e.id);
        const label = type ? t(`edgeType.${type}`) : e.label;
        const ariaLabel = t("graph.a11y.edge", { source: titles.get(e.source) ?? e.source, type: label, target: titles.get(e.target) ?? e.target });
        return { ...e, label, ariaLabel, hidden: !positions, style: { ...e.style }, markerEnd: { type: MarkerType.ArrowClosed, color: e.markerEnd.color } };
      }),
    [flow.edges, positions, edgeTypes, titles, t],
  );
  // React Flow's own screen-reader words (its controls, and how to use a node or a link), in the UI's language.
  const ariaLabelConfig = useMemo(
    () => ({
      "node.a11yDescription.default": t("graph.a11y.nodeHelp"),
      "node.a11yDescription.keyboardDisabled": t("graph.a11y.nodeHelp"),
      "node.a11yDescription.ariaLiveMessage": ({ direction, x, y }: { direction: string; x: number; y: number }) => t("graph.a11y.moved", { direction, x, y }),
      "edge.a11yDescription.default": t("graph.a11y.edgeHelp"),
      "controls.ariaLabel": t("graph.a11y.controls"),
      "controls.zoomIn.ariaLabel": t("graph.a11y.zoomIn"),
      "controls.zoomOut.ariaLabel": t("graph.a11y.zoomOut"),
      "controls.fitView.ariaLabel": t("graph.a11y.fitView"),
      "controls.interactive.ariaLabel": t("graph.a11y.interactive"),
      "minimap.ariaLabel": t("graph.overview"),
      "handle.ariaLabel": t("graph.a11y.handle"),
    }),
    [t],
  );
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      nodesDraggable={false}
      nodesConnectable={false}
      onNodesChange={onNodesChange}
      onNodeClick={(_, node) => onSelect(node.id)}
      proOptions={{ hideAttribution: true }}
      ariaLabelConfig={ariaLabelConfig}
      colorMode="system"
      minZoom={0.2}
      maxZoom={2}
    >
      <Background gap={20} color="#e2e8f0" />
      <Controls showInteractive={false} fitViewOptions={FIT_VIEW} />
      {graph.nodes.length >= MINIMAP_FROM && <MiniMap pannable zoomable style={{ width: 160, height: 100 }} nodeColor={(n) => (n.data as ClaimNodeData).colors.border} ariaLabel={t("graph.overview")} />}
    </ReactFlow>
  );
}

/**
 * The nodes, from the left, that fit the panel at the smallest readable zoom (at least the leftmost
 * one): a wide graph opens at its first rounds instead of its unreadable whole or its middle.
 */
function firstRanks(positions: ReadonlyMap<string, { x: number; y: number }>, sizes: ReadonlyMap<string, { width: number }>, panelWidth: number): { id: string }[] {
  const start = Math.min(...[...positions.values()].map((p) => p.x));
  const room = (panelWidth / FIT_VIEW.minZoom) * (1 - 2 * FIT_VIEW.padding);
  const right = (id: string, p: { x: number }) => p.x + (sizes.get(id)?.width ?? 0);
  const fitting = [...positions].filter(([id, p]) => right(id, p) <= start + room);
  const shown = fitting.length ? fitting : [...positions].filter(([, p]) => p.x === start);
  return shown.map(([id]) => ({ id }));
}

function ClaimButtons({ graph, onSelect, selectedId }: { graph: ApiGraph; onSelect: (id: string) => void; selectedId: string | null }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t("graph.claimsLabel")} className="space-y-1">
      {graph.nodes.map((node) => (
        <li key={node.id}>
          <button
            type="button"
            aria-pressed={node.id === selectedId}
            onClick={() => onSelect(node.id)}
            className="flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-50"
          >
            <span className="mt-1 inline-block size-3 shrink-0 rounded border-2" style={{ borderColor: STATUS_COLORS[node.status].border, background: STATUS_COLORS[node.status].background }} aria-hidden />
            <span className="line-clamp-2">
              <span className="sr-only">{t("graph.claimPrefix", { status: t(`claimStatus.${node.status}`) })}</span>
              {node.label}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Statuses are filters (toggle buttons with their counts); edge types are a key. */
function GraphLegend({ graph, hidden, onToggle }: { graph: ApiGraph; hidden: ReadonlySet<ClaimStatus>; onToggle: (status: ClaimStatus) => void }) {
  const { t } = useTranslation();
  const counts = summarizeGraph(graph).byStatus;
  return (
    <div className="space-y-1 text-xs text-slate-600">
      <div role="group" aria-label={t("graph.byStatus")} className="flex flex-wrap gap-1.5">
        {(Object.entries(STATUS_COLORS) as [ClaimStatus, (typeof STATUS_COLORS)[ClaimStatus]][]).map(([status, c]) => (
          <button
            key={status}
            type="button"
            aria-pressed={!hidden.has(status)}
            onClick={() => onToggle(status)}
            className="flex items-center gap-1 rounded-full border border-slate-200 px-2 py-0.5 hover:bg-slate-50 aria-[pressed=false]:text-slate-400 aria-[pressed=false]:line-through"
          >
            <span className="inline-block size-3 rounded border-2" style={{ borderColor: c.border, background: c.background }} aria-hidden />
            {t("graph.statusCount", { status: t(`claimStatus.${status}`), count: counts[status] ?? 0 })}
          </button>
        ))}
      </div>
      <div role="group" className="flex flex-wrap gap-x-4 gap-y-1" aria-label={t("graph.linkTypes")}>
        {(Object.entries(EDGE_COLORS) as [keyof typeof EDGE_COLORS, string][]).map(([type, color]) => (
          <span key={type} className="flex items-center gap-1">
            <span className="inline-block h-0.5 w-4" style={{ background: color }} aria-hidden />
            {t(`edgeType.${type}`)}
          </span>
        ))}
      </div>
    </div>
  );
}
