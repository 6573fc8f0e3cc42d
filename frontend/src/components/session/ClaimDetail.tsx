import type { ApiNode } from "../../graph/toFlowElements";
import type { ClaimView } from "../../session/sessionTimeline";
import { ClaimCard } from "../reviews/ClaimCard";
import { Badge } from "../ui/Badge";

/**
 * The selected graph node. A claim some review has shown is drawn in full by ClaimCard (its own
 * badges, evidence and scores); otherwise only what the graph node carries is known.
 */
export function ClaimDetail({ node, claim, onClose }: { node: ApiNode; claim: ClaimView | undefined; onClose: () => void }) {
  return (
    <aside aria-label="Selected claim" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="claim-detail">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">Selected claim</h2>
        <button type="button" className="text-sm text-slate-500 hover:text-slate-900" onClick={onClose} aria-label="Close claim details">
          ✕
        </button>
      </div>
      {claim ? <ClaimCard claim={current(claim, node)} /> : <NodeSummary node={node} />}
    </aside>
  );
}

/** A review's snapshot of the claim, with the status and confidence the graph has now (verdicts change them). */
function current(claim: ClaimView, node: ApiNode): ClaimView {
  return { ...claim, status: node.status, confidence: node.confidence };
}

function NodeSummary({ node }: { node: ApiNode }) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-1.5">
        <Badge tone="indigo">{node.claim_type}</Badge>
        <Badge>{node.status}</Badge>
        <Badge tone="sky">{node.confidence}</Badge>
        {node.score !== null && node.score !== undefined && <Badge tone="emerald">score {node.score.toFixed(2)}</Badge>}
      </div>
      <p className="text-sm text-slate-800">{node.label}</p>
      <p className="text-xs text-slate-500">Evidence and scores appear here once a review has shown this claim.</p>
    </div>
  );
}
