import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHypothesisPool } from "../../hooks/useHypothesisPool";
import { Badge } from "../ui/Badge";
import {
  ancestry,
  hyperpathChain,
  operatorCounts,
  operatorLabel,
  searchSummaryText,
  type HyperpathView,
  type PoolHypothesis,
  type SearchView,
} from "./hypothesisLineage";

/** A hyperpath as a small chain: node —relation [hyperedge]→ node …, with the mechanism step of each relation. */
export function HyperpathChain({ trace }: { trace: HyperpathView }) {
  const items = hyperpathChain(trace);
  const { t } = useTranslation();
  const cut = trace.extent === "work_bound" && <p className="text-xs text-amber-800">{t("lineage.workBound")}</p>;
  if (items.length === 0)
    return (
      <div className="space-y-1">
        <p className="text-xs text-slate-500">{t("lineage.noHyperpath")}</p>
        {cut}
      </div>
    );
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        {t("lineage.grounding", { score: trace.score.toFixed(2), count: trace.paths.length })}
      </p>
      {cut}
      <ol aria-label={t("lineage.hyperpath")} className="flex flex-wrap items-center gap-1 text-xs">
        {items.map((item) =>
          item.kind === "node" ? (
            <li key={item.key} className="break-words rounded-md border border-sky-200 bg-sky-50 px-1.5 py-0.5 font-medium text-sky-900">
              {item.label}
            </li>
          ) : (
            <li key={item.key} className="break-words text-slate-700">
              <span aria-hidden>—</span>
              {item.relation}
              <span className="text-slate-500"> [{item.hyperedgeId}]</span>
              <span aria-hidden>→</span>
              {item.step && <span className="sr-only">: {item.step}</span>}
            </li>
          ),
        )}
      </ol>
      {trace.chain.length > 0 && (
        <ol aria-label={t("lineage.mechanismChain")} className="ml-5 list-decimal space-y-0.5 text-xs text-slate-700">
          {trace.chain.map((link) => (
            <li key={`${link.hyperedge_id}-${link.step}`} className="break-words">
              {link.step} <span className="text-slate-500">[{link.hyperedge_id}]</span>
            </li>
          ))}
        </ol>
      )}
      {trace.provenance.length > 0 && (
        <p className="break-words text-xs text-slate-500">
          {t("lineage.provenance", { sources: [...new Set(trace.provenance.map((p) => `${p.source}#${p.locator}`))].join("; ") })}
        </p>
      )}
    </div>
  );
}

/** How one hypothesis was made: its operator, its ancestors through the pool, and what the operator grounded it on. */
export function HypothesisLineage({ hypothesis, pool }: { hypothesis: PoolHypothesis; pool: ReadonlyMap<string, PoolHypothesis> }) {
  const ancestors = ancestry(hypothesis.id, pool).slice(1);
  const { t } = useTranslation();
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-baseline gap-2">
        <Badge tone={hypothesis.operator === "biso" ? "slate" : "indigo"}>{operatorLabel(hypothesis.operator)}</Badge>
        <span className="font-medium text-slate-900">{hypothesis.title}</span>
        {hypothesis.structural_grounding != null && (
          <span className="text-xs text-slate-600">{t("lineage.groundingShort", { score: hypothesis.structural_grounding.toFixed(2) })}</span>
        )}
      </div>
      {ancestors.length > 0 && (
        <ul aria-label={t("lineage.lineageOf", { title: hypothesis.title })} className="space-y-0.5 text-xs text-slate-700">
          {ancestors.map((a) => (
            <li key={a.id} style={{ paddingLeft: `${(a.depth - 1) * 0.75}rem` }}>
              <span aria-hidden>↳ </span>
              {t(a.depth === 1 ? "lineage.parent" : "lineage.ancestor", { depth: a.depth, title: a.title ?? t("lineage.notInPage", { id: a.id }) })}
              {a.operator && <span className="text-slate-500"> · {operatorLabel(a.operator)}</span>}
            </li>
          ))}
        </ul>
      )}
      {hypothesis.hyperpath && <HyperpathChain trace={hypothesis.hyperpath} />}
      {hypothesis.blend && (
        <ul aria-label={t("lineage.emergent")} className="ml-5 list-disc text-xs text-slate-700">
          {hypothesis.blend.emergent.map((e) => (
            <li key={e.description} className="break-words">
              {t("lineage.emergentLine", { description: e.description, observable: e.observable_link, prediction: e.testable_prediction })}
            </li>
          ))}
        </ul>
      )}
      {hypothesis.transform && (
        <p className="break-words text-xs text-slate-700">
          {hypothesis.transform.proposal.op.replaceAll("_", " ")}: «{hypothesis.transform.proposal.before}» → «{hypothesis.transform.proposal.after}»
        </p>
      )}
    </div>
  );
}

/** What the round's SEARCH did, with every Transform Gate decision (rejected proposals are shown only here). */
export function SearchRoundSummary({ search }: { search: SearchView }) {
  const transforms = search.transforms ?? [];
  const { t } = useTranslation();
  return (
    <div className="space-y-2 text-sm" data-testid="search-summary">
      <p className="break-words text-slate-700">{searchSummaryText(search)}</p>
      {Object.keys(search.operators).length > 0 && <p className="text-xs text-slate-600">{t("lineage.operators", { counts: operatorCounts(search.operators) })}</p>}
      {transforms.length > 0 && (
        <ul aria-label={t("lineage.transformGate")} className="space-y-1">
          {transforms.map((gate) => (
            <li key={gate.proposal_id} className="break-words rounded-md border border-slate-200 px-2.5 py-1.5 text-xs">
              <Badge tone={gate.status === "accepted" ? "emerald" : "rose"}>{t(`lineage.transformStatus.${gate.status}`)}</Badge>{" "}
              {t("lineage.transformOn", { op: gate.proposal.op.replaceAll("_", " "), target: gate.proposal.target_id || t("lineage.newPrimitive"), after: gate.proposal.after })}
              {gate.reasons.length > 0 && <span className="block text-rose-800">{gate.reasons.join(" ")}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** This round's SEARCH children with their lineage and hyperpaths; the pool is fetched when opened. */
export function SearchLineagePanel({ sessionId, round }: { sessionId: string; round: number }) {
  const [open, setOpen] = useState(false);
  const query = useHypothesisPool(sessionId, open);
  const pool = useMemo(() => new Map((query.data?.items ?? []).map((h) => [h.id, h])), [query.data]);
  const children = (query.data?.items ?? []).filter((h) => h.operator !== "biso" && h.round === round);
  const { t } = useTranslation();
  return (
    <details className="rounded-lg border border-slate-200" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">{t("lineage.panelSummary")}</summary>
      <div className="space-y-3 border-t border-slate-200 px-3 py-2">
        {query.isPending && open && <p className="text-sm text-slate-500">{t("explore.poolLoading")}</p>}
        {query.isError && <p role="alert" className="text-sm text-rose-800">{query.error.message}</p>}
        {query.isSuccess && children.length === 0 && <p className="text-sm text-slate-500">{t("lineage.noSearch")}</p>}
        {children.map((h) => (
          <section key={h.id} aria-label={h.title} className="border-b border-slate-100 pb-2 last:border-b-0">
            <HypothesisLineage hypothesis={h} pool={pool} />
          </section>
        ))}
      </div>
    </details>
  );
}
