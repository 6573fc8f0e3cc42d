import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "../ui/Badge";
import { TextListEditor } from "../ui/TextListEditor";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ReviewForm, ReviewSection, TextArea } from "./ReviewForm";
import type { BuildDecisionType, ReviewScreenProps } from "./reviewTypes";
import {
  EMPTY_BUILD_DRAFT,
  MAX_EVIDENCE_URL_CHARS,
  MAX_EVIDENCE_URLS,
  MAX_INSIGHT_CHARS,
  NEW_ROUND_DECISIONS,
  validateBuild,
  type BuildDraft,
} from "./validateReviews";
import { RadioCard } from "../ui/RadioCard";
import { CuriosityPicker } from "./CuriosityPicker";

function shorten(text: string, max = 110): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Review after BUILD: look at the gaps and what failed, then continue, deep-dive, resolve or add an insight. */
export function BuildDecision({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_build">) {
  const payload = event.data;
  const nodes = payload.graph.nodes;
  const [draft, setDraft] = useReviewDraft<BuildDraft>(sessionId, event.id, EMPTY_BUILD_DRAFT);
  const { t } = useTranslation();
  const name = useId();
  const round = payload.round + 1;
  const lastRound = payload.max_rounds_reached;

  const options: readonly { value: BuildDecisionType; label: string; help: string; unavailable: string | null }[] = [
    {
      value: "continue",
      label: t("build.continue"),
      help: t("build.continueHelp", { next: round + 1 }),
      unavailable: lastRound ? t("build.continueLast", { round }) : null,
    },
    {
      value: "deep_dive",
      label: t("build.deepDive"),
      help: t("build.deepDiveHelp", { next: round + 1 }),
      unavailable: lastRound ? t("build.deepDiveLast", { round }) : nodes.length === 0 ? t("build.deepDiveEmpty") : null,
    },
    { value: "resolve", label: t("build.resolve"), help: t("build.resolveHelp"), unavailable: null },
    { value: "add_insight", label: t("build.addInsight"), help: t("build.addInsightHelp"), unavailable: null },
  ];

  return (
    <ReviewForm
      testId="review-build"
      title={t("build.title", { round })}
      intro={
        <span className="flex flex-wrap items-center gap-2">
          <span>
            {t("build.holds", { claims: t("build.claims", { count: nodes.length }), links: t("build.links", { count: payload.graph.edges.length }) })}
          </span>
          {lastRound && <Badge tone="amber">{t("build.lastRound")}</Badge>}
        </span>
      }
      submitLabel={t("build.submit")}
      validate={() => validateBuild(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <ReviewSection title={t("build.gapsTitle")} description={t("build.gapsDescription")}>
          {payload.gaps.length ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
              {payload.gaps.map((g, i) => (
                <li key={i}>{g}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t("build.noGaps")}</p>
          )}
        </ReviewSection>
        <ReviewSection title={t("build.negativeTitle")} description={t("build.negativeDescription")}>
          {payload.negative_knowledge.length ? (
            <ul className="space-y-2">
              {payload.negative_knowledge.map((k) => (
                <li key={k.claim_id} className="space-y-1 rounded-lg border border-rose-100 bg-rose-50/40 p-3 text-sm">
                  <p className="text-slate-800">{k.claim_text}</p>
                  <p className="text-slate-700">
                    <span className="font-medium">{t("build.whyNot")}</span>
                    {k.reason}
                  </p>
                  <Badge tone="rose">{t("build.round", { round: k.round + 1 })}</Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t("build.nothingRejected")}</p>
          )}
        </ReviewSection>
      </div>

      <CuriosityPicker
        items={payload.curiosity ?? []}
        selected={draft.curiosityId ?? ""}
        onSelect={(curiosityId) => setDraft((d) => ({ ...d, curiosityId }))}
        appliesToDecision={draft.decision === null || NEW_ROUND_DECISIONS.includes(draft.decision)}
        disabled={lastRound}
      />

      <ReviewSection title={t("build.decisionTitle")}>
        <fieldset className="min-w-0">
          <legend className="sr-only">{t("build.whatNext")}</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {options.map((o) => (
              <RadioCard
                key={o.value}
                name={name}
                value={o.value}
                label={o.label}
                help={o.help}
                unavailable={o.unavailable}
                checked={draft.decision === o.value}
                onSelect={() => setDraft((d) => ({ ...d, decision: o.value }))}
              />
            ))}
          </div>
        </fieldset>

        {draft.decision === "deep_dive" && !lastRound && (
          <div className="space-y-1">
            <label htmlFor={`${name}-claim`} className="block text-sm font-medium text-slate-800">
              {t("build.deepDiveClaim")}
              <span className="ml-1 text-rose-700" aria-hidden>*</span>
            </label>
            <select
              id={`${name}-claim`}
              required
              value={draft.deepDiveClaimId}
              onChange={(e) => setDraft((d) => ({ ...d, deepDiveClaimId: e.target.value }))}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
            >
              <option value="">{t("build.chooseClaim")}</option>
              {nodes.map((node) => (
                <option key={node.id} value={node.id}>
                  {t("build.claimOption", { label: shorten(node.label), status: t(`claimStatus.${node.status}`) })}
                </option>
              ))}
            </select>
          </div>
        )}

        {draft.decision === "add_insight" && (
          <div className="space-y-4">
            <TextArea
              id={`${name}-insight`}
              label={t("build.insight")}
              hint={t("build.insightHint")}
              required
              rows={4}
              value={draft.insight}
              onChange={(insight) => setDraft((d) => ({ ...d, insight }))}
              maxChars={MAX_INSIGHT_CHARS}
            />
            <TextListEditor
              label={t("build.evidenceUrls")}
              items={draft.evidenceUrls}
              onChange={(evidenceUrls) => setDraft((d) => ({ ...d, evidenceUrls }))}
              pending={draft.pendingEvidenceUrl}
              onPendingChange={(pendingEvidenceUrl) => setDraft((d) => ({ ...d, pendingEvidenceUrl }))}
              placeholder="https://…"
              maxItems={MAX_EVIDENCE_URLS}
              maxLength={MAX_EVIDENCE_URL_CHARS}
            />
          </div>
        )}
      </ReviewSection>
    </ReviewForm>
  );
}
