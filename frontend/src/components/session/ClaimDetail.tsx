import { useTranslation } from "react-i18next";
import type { ApiNode } from "../../graph/toFlowElements";
import type { ClaimView } from "../../session/sessionTimeline";
import { ClaimCard } from "../reviews/ClaimCard";
import { Badge } from "../ui/Badge";

/**
 * The selected graph node. A claim some review has shown is drawn in full by ClaimCard (its own
 * badges, evidence and scores); otherwise only what the graph node carries is known.
 */
export function ClaimDetail({ node, claim, onClose }: { node: ApiNode; claim: ClaimView | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <aside aria-label={t("claim.selected")} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="claim-detail">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t("claim.selected")}</h2>
        <button type="button" className="text-sm text-slate-500 hover:text-slate-900" onClick={onClose} aria-label={t("claim.close")}>
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
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-1.5">
        <Badge tone="indigo">{t(`claimType.${node.claim_type}`)}</Badge>
        <Badge>{t(`claimStatus.${node.status}`)}</Badge>
        <Badge tone="sky">{t(`confidence.${node.confidence}`)}</Badge>
        {node.score !== null && node.score !== undefined && <Badge tone="emerald">{t("claim.score", { score: node.score.toFixed(2) })}</Badge>}
      </div>
      <p className="text-sm text-slate-800">{node.label}</p>
      <p className="text-xs text-slate-500">{t("claim.noDetailYet")}</p>
    </div>
  );
}
