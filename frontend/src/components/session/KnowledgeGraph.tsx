import { Background, Controls, Handle, MarkerType, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { EDGE_COLORS, STATUS_COLORS, toFlowElements, type ApiGraph, type ClaimNodeData } from "../../graph/toFlowElements";

type ClaimNode = Node<ClaimNodeData, "claim">;

function ClaimNodeView({ data, selected }: NodeProps<ClaimNode>) {
  return (
    <div
      className="w-64 rounded-lg border-2 px-3 py-2 text-left text-xs shadow-sm"
      style={{ borderColor: data.colors.border, background: data.colors.background, color: data.colors.text, outline: selected ? `3px solid ${data.colors.border}55` : undefined }}
    >
      <Handle type="target" position={Position.Left} />
      <div className="mb-1 flex items-center justify-between gap-2 text-[10px] font-semibold uppercase tracking-wide">
        <span>{data.status}</span>
        <span>
          r{data.round + 1}
          {data.score !== null ? ` · ${data.score.toFixed(2)}` : ""}
        </span>
      </div>
      <p className="line-clamp-4 leading-snug">{data.label}</p>
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

const NODE_TYPES = { claim: ClaimNodeView };

/**
 * The knowledge graph: claims as nodes coloured by status, typed coloured edges; click a claim for
 * details. The same claims are listed as buttons under it, for keyboards, screen readers and phones.
 */
export function KnowledgeGraph({ graph, onSelect, selectedId }: { graph: ApiGraph; onSelect: (id: string) => void; selectedId: string | null }) {
  const { nodes, edges } = useMemo(() => {
    const flow = toFlowElements(graph);
    return {
      nodes: flow.nodes.map((n): ClaimNode => ({ ...n, data: n.data, selected: n.id === selectedId })),
      edges: flow.edges.map(
        (e): Edge => ({ ...e, style: { ...e.style }, markerEnd: { type: MarkerType.ArrowClosed, color: e.markerEnd.color } }),
      ),
    };
  }, [graph, selectedId]);
  if (!graph.nodes.length)
    return <p className="p-6 text-center text-sm text-slate-500">No claims yet — the graph fills in from the synthesis phase on.</p>;
  return (
    <div className="space-y-2">
      <div className="h-[460px] rounded-lg border border-slate-200 bg-white" data-testid="knowledge-graph">
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          fitView
          nodesDraggable={false}
          nodesConnectable={false}
          onNodeClick={(_, node) => onSelect(node.id)}
          proOptions={{ hideAttribution: true }}
          minZoom={0.2}
        >
          <Background gap={20} color="#e2e8f0" />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
      <GraphLegend />
      <ClaimButtons graph={graph} onSelect={onSelect} selectedId={selectedId} />
    </div>
  );
}

function ClaimButtons({ graph, onSelect, selectedId }: { graph: ApiGraph; onSelect: (id: string) => void; selectedId: string | null }) {
  return (
    <ul aria-label="Claims in the graph" className="space-y-1">
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
              <span className="sr-only">{node.status} claim: </span>
              {node.label}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function GraphLegend() {
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="Legend">
      {Object.entries(STATUS_COLORS).map(([status, c]) => (
        <span key={status} className="flex items-center gap-1">
          <span className="inline-block size-3 rounded border-2" style={{ borderColor: c.border, background: c.background }} />
          {status}
        </span>
      ))}
      {Object.entries(EDGE_COLORS).map(([type, color]) => (
        <span key={type} className="flex items-center gap-1">
          <span className="inline-block h-0.5 w-4" style={{ background: color }} />
          {type.replace("_", " ")}
        </span>
      ))}
    </div>
  );
}
