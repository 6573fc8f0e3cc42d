import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../ui/Badge";
import { EvidenceList } from "./EvidenceList";
import type { ClaimView } from "./reviewTypes";

const STATUS_TONES: Record<ClaimView["status"], BadgeTone> = {
  proposed: "slate",
  validated: "emerald",
  rejected: "rose",
  qualified: "amber",
  superseded: "violet",
};

const SCORE_NAMES = ["novelty", "groundedness", "falsifiability", "significance"] as const;

function Scores({ scores, mean }: { scores: NonNullable<ClaimView["scores"]>; mean: number | null }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <div className="flex items-baseline justify-between gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("claim.scores")}</h4>
        {mean !== null && <span className="text-sm font-medium text-slate-800">{t("claim.mean", { mean: mean.toFixed(2) })}</span>}
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 sm:grid-cols-2">
        {SCORE_NAMES.map((name) => {
          const value = scores[name];
          return (
            <div key={name} className="flex items-center gap-2 text-sm">
              <dt className="w-28 shrink-0 capitalize text-slate-600">{t(`claim.${name}`)}</dt>
              <dd className="flex flex-1 items-center gap-2">
                <span className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                  <span className="block h-full rounded-full bg-indigo-500" style={{ width: `${Math.round(Math.min(1, Math.max(0, value)) * 100)}%` }} />
                </span>
                <span className="w-10 text-right tabular-nums text-slate-800">{value.toFixed(2)}</span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-0.5">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h4>
      <div className="text-sm text-slate-800">{children}</div>
    </div>
  );
}

/**
 * One claim in full: its text, the dialectic that produced it (thesis / antithesis), the condition
 * that would falsify it, its scores once validated, and its evidence. `children` go at the bottom
 * (a review's controls for this claim).
 */
export function ClaimCard({ claim, children }: { claim: ClaimView; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <article className="@container space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap gap-1.5">
        <Badge tone="indigo">{t(`claimType.${claim.claim_type}`)}</Badge>
        <Badge tone={STATUS_TONES[claim.status]}>{t(`claimStatus.${claim.status}`)}</Badge>
        <Badge tone="sky">{t(`confidence.${claim.confidence}`)}</Badge>
        {claim.cross_domain_source && <Badge tone="violet">{t("claim.from", { source: claim.cross_domain_source })}</Badge>}
      </div>
      <p className="text-[15px] leading-relaxed text-slate-900">{claim.text}</p>
      {(claim.thesis_text || claim.antithesis_text) && (
        // Side by side only when the card itself is wide (a container query): in a narrow side
        // panel two columns would squeeze thesis and antithesis into a dozen words a line.
        <div className="grid grid-cols-1 gap-3 @xl:grid-cols-2">
          {claim.thesis_text && (
            <div className="rounded-lg bg-emerald-50/60 p-3">
              <Labelled label={t("claim.thesis")}>{claim.thesis_text}</Labelled>
            </div>
          )}
          {claim.antithesis_text && (
            <div className="rounded-lg bg-rose-50/60 p-3">
              <Labelled label={t("claim.antithesis")}>{claim.antithesis_text}</Labelled>
            </div>
          )}
        </div>
      )}
      {claim.falsifiability_condition && <Labelled label={t("claim.falsifiedIf")}>{claim.falsifiability_condition}</Labelled>}
      {claim.scores && <Scores scores={claim.scores} mean={claim.score_mean} />}
      {claim.novelty_summary && <Labelled label={t("claim.noveltyCheck")}>{claim.novelty_summary}</Labelled>}
      {claim.falsification_summary && <Labelled label={t("claim.falsificationAttempt")}>{claim.falsification_summary}</Labelled>}
      {claim.qualification && <Labelled label={t("claim.qualification")}>{claim.qualification}</Labelled>}
      {claim.rejection_reason && <Labelled label={t("claim.rejectedBecause")}>{claim.rejection_reason}</Labelled>}
      {claim.user_feedback && <Labelled label={t("claim.yourFeedback")}>{claim.user_feedback}</Labelled>}
      {claim.feedback_response && (
        <Labelled label={t(claim.revised_from ? "claim.revisedForFeedback" : "claim.answeredFeedback")}>{claim.feedback_response}</Labelled>
      )}
      {claim.revised_from && <Labelled label={t("claim.revisedFrom")}>{claim.revised_from}</Labelled>}
      <div className="space-y-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("claim.evidence", { count: claim.evidence.length })}</h4>
        <EvidenceList evidence={claim.evidence} />
      </div>
      {children && <div className="border-t border-slate-100 pt-4">{children}</div>}
    </article>
  );
}
