import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import type { DecomposePayload, ExplorePayload } from "./reviewTypes";

type FrameView = NonNullable<DecomposePayload["problem_frame"]>;
type SelectionView = NonNullable<ExplorePayload["domain_selection"]>;
type PoolView = NonNullable<ExplorePayload["pool"]>;

type FindingKind = FrameView["audit"]["findings"][number]["kind"];

// Typed over the API's enum: a finding kind the backend adds fails the type check here.
const FINDING_LABELS: Readonly<Record<FindingKind, ParseKeys>> = {
  duplicate: "frame.findingDuplicate",
  conflict: "frame.findingConflict",
  undecidable: "frame.findingUndecidable",
};

function Items({ label, items }: { label: string; items: readonly string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd>
        <ul className="ml-5 list-disc space-y-0.5 text-slate-800">
          {items.map((item) => (
            <li key={item} className="break-words">
              {item}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}

/** The problem frame as the engine read it, and what the constraint audit (CP-1) found. */
export function ProblemFrameSummary({ view }: { view: FrameView }) {
  const { frame, audit } = view;
  const { t } = useTranslation();
  const findingLabel = (kind: FindingKind) => t(FINDING_LABELS[kind]);
  return (
    <div className="space-y-3 text-sm">
      <dl className="space-y-2">
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("frame.objective")}</dt>
          <dd className="break-words text-slate-800">{frame.objective}</dd>
        </div>
        {frame.target_outcome && (
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("frame.successLooksLike")}</dt>
            <dd className="break-words text-slate-800">{frame.target_outcome}</dd>
          </div>
        )}
        <Items label={t("frame.hardConstraints")} items={frame.hard_constraints} />
        <Items label={t("frame.softConstraints")} items={frame.soft_constraints} />
        <Items label={t("frame.successCriteria")} items={frame.success_criteria} />
        <Items label={t("frame.stakeholders")} items={frame.stakeholders} />
      </dl>
      {audit.findings.length > 0 && (
        <ul className="space-y-1" aria-label={t("frame.auditFindings")}>
          {audit.findings.map((f) => (
            <li key={`${f.kind}-${f.indices.join("-")}`} className="rounded-md border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-amber-900">
              <strong>{t("frame.findingLabel", { label: findingLabel(f.kind) })}</strong> {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The source domains BISO explored, why each was chosen, and what it gave the hypothesis pool. */
export function SourceDomainsSummary({ selection, pool }: { selection: SelectionView; pool: PoolView | null | undefined }) {
  const yields = new Map((pool?.domains ?? []).map((d) => [d.domain_id, d]));
  const { t } = useTranslation();
  return (
    <div className="space-y-2 text-sm">
      {pool && (
        <p className="text-slate-700">
          {t("frame.poolSummary", { kept: pool.kept, generated: pool.generated, passed: pool.passed })}
        </p>
      )}
      {selection.shortfall && <p className="text-amber-800">{selection.shortfall}</p>}
      {selection.filtered_out.length > 0 && (
        <details className="rounded-lg border border-slate-200">
          <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">
            {t("frame.filteredOut", { count: selection.filtered_out.length })}
          </summary>
          <ul className="divide-y divide-slate-100 border-t border-slate-200" aria-label={t("frame.filteredOut", { count: selection.filtered_out.length })}>
            {selection.filtered_out.map((d) => (
              <li key={d.domain_id} className="px-3 py-2 text-xs text-slate-600">
                <span className="font-medium text-slate-900">{d.domain_id}</span>: {d.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <details className="rounded-lg border border-slate-200">
        <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">
          {t("frame.domainsSummary", { count: selection.chosen.length })}
        </summary>
      <ul className="divide-y divide-slate-100 border-t border-slate-200" aria-label={t("explore.domainsTitle")}>
        {selection.chosen.map((d) => {
          const y = yields.get(d.domain_id);
          return (
            <li key={d.domain_id} className="px-3 py-2">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium text-slate-900">{d.name}</span>
                {y && (
                  <span className="text-xs text-slate-600">
                    {y.failure
                      ? t("frame.noHypotheses", { failure: y.failure })
                      : y.declined
                        ? t("frame.declined", { reason: y.declined })
                        : t("frame.domainYield", { n: y.hypotheses, passed: y.passed })}
                  </span>
                )}
              </div>
              <p className="break-words text-xs text-slate-600">{d.reason}</p>
            </li>
          );
        })}
      </ul>
      </details>
    </div>
  );
}
