import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../ui/Badge";
import { ScrollArea } from "../ui/ScrollArea";
import { TextListEditor } from "../ui/TextListEditor";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { SourceDomainsSummary } from "./EngineSummaries";
import { PoolStarPicker } from "./PoolStarPicker";
import { toggleStar } from "./poolStars";
import { ReviewForm, ReviewSection } from "./ReviewForm";
import type { AnalogyView, ExplorePayload, ReviewScreenProps } from "./reviewTypes";
import { EMPTY_EXPLORE_DRAFT, MAX_ITEM_CHARS, MAX_SUGGESTED_DOMAINS, validateExplore, type ExploreDraft } from "./validateReviews";

const DISTANCE_TONES: Record<AnalogyView["semantic_distance"], BadgeTone> = { near: "sky", medium: "amber", far: "violet" };

function MorphologicalBox({ box }: { box: ExplorePayload["morphological_box"] }) {
  const { t } = useTranslation();
  if (box.length === 0) return <p className="text-sm text-slate-500">{t("explore.noBox")}</p>;
  const columns = Math.max(...box.map((p) => p.options.length));
  return (
    <ScrollArea label={t("explore.boxLabel")} className="rounded-lg border border-slate-200">
      <table className="min-w-full border-collapse text-left text-sm">
        <caption className="sr-only">{t("explore.boxCaption")}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {t("explore.parameter")}
            </th>
            {Array.from({ length: columns }, (_, i) => (
              <th key={i} scope="col" className="px-3 py-2 font-semibold">
                {t("explore.option", { n: i + 1 })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {box.map((parameter) => (
            <tr key={parameter.name} className="border-t border-slate-100 align-top">
              <th scope="row" className="min-w-40 px-3 py-2 font-medium text-slate-900">
                {parameter.name}
              </th>
              {Array.from({ length: columns }, (_, i) => (
                <td key={i} className="min-w-36 px-3 py-2 text-slate-700">
                  {parameter.options[i] ?? <span className="text-slate-300" aria-label={t("explore.none")}>—</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

function AnalogyCard({ analogy, starred, onToggle }: { analogy: AnalogyView; starred: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const n = analogy.index + 1;
  return (
    <article
      aria-labelledby={`analogy-${analogy.id}`}
      className={`space-y-3 rounded-xl border p-4 shadow-sm transition ${starred ? "border-amber-300 bg-amber-50/40" : "border-slate-200 bg-white"}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <h4 id={`analogy-${analogy.id}`} className="font-semibold text-slate-900">
            {t("explore.analogy", { n, domain: analogy.source_domain })}
          </h4>
          <div className="flex flex-wrap gap-1.5">
            <Badge tone={DISTANCE_TONES[analogy.semantic_distance]}>{t(`distance.${analogy.semantic_distance}`)}</Badge>
            {analogy.suggested_by_user && <Badge tone="indigo">{t("explore.yourSuggestion")}</Badge>}
            {analogy.hypothesis_id && <Badge tone="indigo">{t("explore.fromPool", { id: analogy.hypothesis_id })}</Badge>}
            {analogy.mapping_score != null && <Badge>{t("explore.mappingScore", { score: analogy.mapping_score.toFixed(1) })}</Badge>}
          </div>
        </div>
        <button
          type="button"
          aria-pressed={starred}
          onClick={onToggle}
          className={`inline-flex shrink-0 items-center gap-1.5 rounded-lg border px-3 py-1.5 text-sm font-medium transition focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:cursor-not-allowed disabled:opacity-60 ${
            starred ? "border-amber-400 bg-amber-100 text-amber-900" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
          }`}
        >
          <span aria-hidden>{starred ? "★" : "☆"}</span>
          {t("explore.star")}
          <span className="sr-only"> {t("explore.starLabel", { n, domain: analogy.source_domain })}</span>
        </button>
      </header>
      <p className="text-sm leading-relaxed text-slate-800">{analogy.description}</p>
      {analogy.mapping.length > 0 && (
        <details className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">{t("explore.mapping", { count: analogy.mapping.length })}</summary>
          <ul className="mt-2 space-y-1.5">
            {analogy.mapping.map((row, i) => (
              <li key={i} className="text-slate-700">
                <span className="font-medium text-slate-900">{row.source_concept}</span> → <span className="font-medium text-slate-900">{row.target_concept}</span>
                <span className="block text-xs text-slate-500">{row.relation}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <dl className="grid grid-cols-1 gap-3 text-sm md:grid-cols-2">
        {analogy.observable && (
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("explore.observable")}</dt>
            <dd className="text-slate-800">{analogy.observable}</dd>
          </div>
        )}
        {analogy.failure_mode && (
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("explore.failsWhen")}</dt>
            <dd className="text-slate-800">{analogy.failure_mode}</dd>
          </div>
        )}
      </dl>
    </article>
  );
}

/** Review after EXPLORE: the morphological box, analogies to star, contradictions and the adjacent possible. */
export function ExploreReview({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_explore">) {
  const { t } = useTranslation();
  const payload = event.data;
  const [draft, setDraft] = useReviewDraft<ExploreDraft>(sessionId, event.id, EMPTY_EXPLORE_DRAFT);
  const toggle = (index: number) =>
    setDraft((d) => ({
      ...d,
      starredAnalogies: d.starredAnalogies.includes(index) ? d.starredAnalogies.filter((i) => i !== index) : [...d.starredAnalogies, index],
    }));

  return (
    <ReviewForm
      testId="review-explore"
      title={t("explore.title")}
      intro={t("explore.intro")}
      submitLabel={t("explore.submit")}
      validate={() => validateExplore(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {payload.domain_selection && (
        <ReviewSection
          title={t("explore.domainsTitle")}
          description={t("explore.domainsDescription", { count: payload.domain_selection.chosen.length })}
        >
          <SourceDomainsSummary selection={payload.domain_selection} pool={payload.pool} />
        </ReviewSection>
      )}

      {sessionId && (
        <ReviewSection title={t("explore.poolTitle")} description={t("explore.poolDescription")}>
          <PoolStarPicker
            sessionId={sessionId}
            starred={draft.starredHypotheses ?? []}
            onToggle={(id) => setDraft((d) => ({ ...d, starredHypotheses: toggleStar(d.starredHypotheses ?? [], id) }))}
            disabled={disabled ?? false}
          />
        </ReviewSection>
      )}

      <ReviewSection title={t("explore.boxTitle")} description={t("explore.boxDescription")}>
        <MorphologicalBox box={payload.morphological_box} />
      </ReviewSection>

      <ReviewSection title={t("explore.analogiesTitle")} description={t("explore.starred", { starred: draft.starredAnalogies.length, total: payload.analogies.length })}>
        <div className="space-y-3">
          {payload.analogies.map((a) => (
            <AnalogyCard key={a.index} analogy={a} starred={draft.starredAnalogies.includes(a.index)} onToggle={() => toggle(a.index)} />
          ))}
          {payload.analogies.length === 0 && <p className="text-sm text-slate-500">{t("explore.noAnalogies")}</p>}
        </div>
      </ReviewSection>

      <ReviewSection title={t("explore.contradictionsTitle")}>
        {payload.contradictions.length ? (
          <ul className="space-y-2">
            {payload.contradictions.map((c) => (
              <li key={c.index} className="space-y-1 rounded-lg border border-slate-200 p-3 text-sm">
                <p className="font-medium text-slate-900">
                  {t("explore.tradeOff", { a: c.property_a, b: c.property_b })}
                </p>
                <p className="text-slate-700">{c.description}</p>
                {c.resolution_direction && (
                  <p className="text-slate-700">
                    <span className="font-medium text-slate-800">{t("explore.direction")}</span>
                    {c.resolution_direction}
                  </p>
                )}
                {c.matrix_cell && (
                  <p className="text-xs text-slate-600">
                    {t("explore.matrixCell", {
                      improving: c.matrix_cell.improving,
                      improvingName: c.matrix_cell.improving_name,
                      worsening: c.matrix_cell.worsening,
                      worseningName: c.matrix_cell.worsening_name,
                    })}
                    {c.matrix_cell.principles.length === 0 && t("explore.matrixEmpty")}
                  </p>
                )}
                {c.principles.length > 0 && (
                  <div className="flex flex-wrap gap-1.5 pt-1">
                    {c.principles.map((p, i) => (
                      <Badge key={`${i}-${p}`} tone="violet">
                        {p}
                      </Badge>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{t("explore.noContradictions")}</p>
        )}
      </ReviewSection>

      <ReviewSection title={t("explore.adjacentTitle")}>
        {payload.adjacent.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
            {payload.adjacent.map((a, i) => (
              <li key={i}>{a}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{t("explore.noAdjacent")}</p>
        )}
      </ReviewSection>

      <ReviewSection title={t("explore.otherDomainsTitle")} description={t("explore.otherDomainsDescription")}>
        {payload.suggestion_outcomes && payload.suggestion_outcomes.length > 0 && (
          <ul className="mb-2 space-y-1 text-sm text-slate-700">
            {payload.suggestion_outcomes.map((o) => (
              <li key={`${o.round}-${o.suggestion}`}>
                {o.source === "none"
                  ? t("explore.suggestionNotExplored", { suggestion: o.suggestion, note: o.note })
                  : t("explore.suggestionExplored", { suggestion: o.suggestion, domain: o.domain_name, n: o.hypotheses, note: o.note })}
              </li>
            ))}
          </ul>
        )}
        <TextListEditor
          label={t("explore.suggestDomain")}
          items={draft.suggestedDomains}
          onChange={(items) => setDraft((d) => ({ ...d, suggestedDomains: items }))}
          pending={draft.pendingDomain}
          onPendingChange={(pendingDomain) => setDraft((d) => ({ ...d, pendingDomain }))}
          placeholder={t("explore.domainPlaceholder")}
          maxItems={MAX_SUGGESTED_DOMAINS}
          maxLength={MAX_ITEM_CHARS}
        />
      </ReviewSection>
    </ReviewForm>
  );
}
