import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHypothesisPool } from "../../hooks/useHypothesisPool";
import { Badge } from "../ui/Badge";
import type { PoolHypothesis } from "./hypothesisLineage";
import { canStar, groupPoolByDomain, MAX_POOL_STARS } from "./poolStars";

function PoolCard({ h, starred, onToggle, disabled }: { h: PoolHypothesis; starred: boolean; onToggle: () => void; disabled: boolean }) {
  const { t } = useTranslation();
  const starrable = canStar(h);
  return (
    <li className={`space-y-2 rounded-lg border p-3 text-sm ${starred ? "border-amber-300 bg-amber-50/40" : "border-slate-200 bg-white"}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="font-medium break-words text-slate-900">{h.title}</p>
          <div className="flex flex-wrap gap-1.5">
            <Badge tone={starrable ? "emerald" : "slate"}>{starrable ? t("explore.gatePassed") : t("explore.gateFailed")}</Badge>
            <Badge tone="slate">{t("explore.mappingScore", { score: h.gate.mapping_score.toFixed(1) })}</Badge>
            {h.gate.unpack?.padding_suspected && <Badge tone="amber">{t("explore.padding")}</Badge>}
            {h.operator !== "biso" && <Badge tone="indigo">{h.operator}</Badge>}
          </div>
        </div>
        <button
          type="button"
          aria-pressed={starred}
          disabled={disabled || (!starrable && !starred)}
          onClick={onToggle}
          className={`inline-flex shrink-0 items-center gap-1.5 rounded-lg border px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:cursor-not-allowed disabled:opacity-60 ${
            starred ? "border-amber-400 bg-amber-100 text-amber-900" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
          }`}
        >
          <span aria-hidden>{starred ? "★" : "☆"}</span>
          {t("explore.star")}
          <span className="sr-only"> {h.title}</span>
        </button>
      </div>
      <p className="break-words text-slate-800">{h.statement}</p>
      <details className="rounded bg-slate-50 px-2 py-1">
        <summary className="cursor-pointer text-slate-700">{t("explore.mappingDetails", { n: h.mapping.length })}</summary>
        <ul className="mt-1 space-y-1">
          {h.mapping.map((r, i) => (
            <li key={i} className="break-words text-slate-700">
              <span className="font-medium">{r.source_concept}</span> ({r.source_relation}) → <span className="font-medium">{r.target_concept}</span> ({r.target_relation})
            </li>
          ))}
        </ul>
        <p className="mt-1 break-words"><span className="font-medium">{t("explore.poolObservable")}</span>{h.observable}</p>
        <p className="break-words"><span className="font-medium">{t("explore.poolFailsWhen")}</span>{h.failure_modes.join(" · ")}</p>
      </details>
    </li>
  );
}

/** The whole pool, by source domain, each hypothesis starrable (the pool is fetched when opened). */
export function PoolStarPicker({ sessionId, starred, onToggle, disabled }: { sessionId: string; starred: readonly string[]; onToggle: (id: string) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(starred.length > 0);
  const query = useHypothesisPool(sessionId, open);
  const groups = groupPoolByDomain(query.data?.items ?? []);
  return (
    <details className="rounded-lg border border-slate-200" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">
        {t("explore.poolSummary", { n: starred.length, max: MAX_POOL_STARS })}
      </summary>
      <div className="space-y-3 px-3 pb-3">
        {query.isPending && open && <p className="text-sm text-slate-500">{t("explore.poolLoading")}</p>}
        {query.isError && <p role="alert" className="text-sm text-rose-800">{query.error.message}</p>}
        {groups.map((g) => (
          <section key={g.domainId} aria-label={g.domainName} className="space-y-2">
            <h4 className="text-sm font-semibold text-slate-900">
              {g.domainName} <span className="font-normal text-slate-500">{t("explore.poolDomain", { n: g.hypotheses.length, passed: g.passed })}</span>
            </h4>
            <ul className="space-y-2">
              {g.hypotheses.map((h) => (
                <PoolCard key={h.id} h={h} starred={starred.includes(h.id)} onToggle={() => onToggle(h.id)} disabled={disabled} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </details>
  );
}
