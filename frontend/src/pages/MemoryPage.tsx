/**
 * Memory: the hypotheses earlier sessions judged (seed 004), with their confidence (C), how C moved
 * with each change (plotted, and listed with the session it happened in), and the sessions they came
 * from. A search ranks by relevance × C (BM25 over the episodes fused with the cosine, as research ranks).
 */
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { Alert } from "../components/ui/Alert";
import { Badge } from "../components/ui/Badge";
import { Button } from "../components/ui/Button";
import { MEMORY_PAGE_SIZE, useMemorySearch } from "../hooks/useMemory";
import {
  cHistory,
  cHistoryLabel,
  changeWords,
  evidenceWords,
  percent,
  sessionsOf,
  sparklineDots,
  sparklinePoints,
  type RememberedHypothesis,
  type UsageEntry,
} from "../memory/describeMemory";
import { formatWhen } from "../session/describeSession";

const FLOORS: readonly [{ value: number; label: ParseKeys }, ...{ value: number; label: ParseKeys }[]] = [
  { value: 0.2, label: "memory.floorOffered" },
  { value: 0, label: "memory.floorAll" },
];

/** The C history as a plot; each point after the first names its change (kind, similarity) on hover. */
function CPlot({ values, changes }: { values: readonly number[]; changes: readonly UsageEntry[] }) {
  const { t } = useTranslation();
  return (
    <svg viewBox="0 0 120 32" className="h-8 w-28 shrink-0" role="img" aria-label={t("memory.overTime", { history: cHistoryLabel(values) })}>
      <line x1="2" x2="118" y1="16" y2="16" className="stroke-slate-200" strokeDasharray="2 2" />
      <polyline points={sparklinePoints(values, 120, 32)} fill="none" className="stroke-indigo-600" strokeWidth="2" />
      {sparklineDots(values, 120, 32).map((d, i) => {
        const change = i > 0 ? changes[i - 1] : undefined;
        return (
          <circle key={i} cx={d.x} cy={d.y} r="2.5" className="fill-indigo-600">
            {change && <title>{`${changeWords(change)}: ${percent(change.c_before)} → ${percent(change.c_after)}`}</title>}
          </circle>
        );
      })}
    </svg>
  );
}

function HypothesisCard({ h }: { h: RememberedHypothesis }) {
  const history = cHistory(h);
  const tone = h.confidence >= 0.5 ? "emerald" : h.confidence < 0.2 ? "rose" : "amber";
  const { t } = useTranslation();
  return (
    <li className="min-w-0 space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="memory-item">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <p className="min-w-0 flex-1 break-words text-sm font-medium text-slate-900">{h.text}</p>
        <div className="flex items-center gap-2">
          <Badge tone={tone}>C {percent(h.confidence)}</Badge>
          <CPlot values={history} changes={h.usage_history} />
        </div>
      </div>
      <p className="text-xs text-slate-600">{evidenceWords(h.support_count, h.contradiction_count)}</p>
      <details className="text-sm">
        <summary className="cursor-pointer text-indigo-700">{t("memory.verdictsAndSessions")}</summary>
        <h3 className="mt-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{t("memory.verdictHistory")}</h3>
        <ol className="mt-1 space-y-1">
          {h.usage_history.map((u, i) => (
            <li key={i} className="break-words text-slate-700" title={u.rule}>
              {t("memory.historyLine", { when: formatWhen(u.at), verdict: changeWords(u), before: percent(u.c_before), after: percent(u.c_after) })}
              {" — "}
              <Link to={`/sessions/${u.session_id}`} className="text-indigo-700 underline-offset-2 hover:underline">
                {u.context || u.session_id}
              </Link>
            </li>
          ))}
        </ol>
        <h3 className="mt-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{t("app.sessions")}</h3>
        <ul className="mt-1 space-y-1">
          {sessionsOf(h).map((s, i) => (
            <li key={s.sessionId} className="break-words">
              <Link to={`/sessions/${s.sessionId}`} className="text-indigo-700 underline-offset-2 hover:underline">
                {s.question || s.sessionId}
              </Link>
              {i === 0 && <span className="text-slate-500">{t("memory.origin")}</span>}
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}

export function MemoryPage() {
  const searchId = useId();
  const floorId = useId();
  const [typed, setTyped] = useState("");
  const [text, setText] = useState("");
  const [minC, setMinC] = useState<number>(FLOORS[0].value);
  const [offset, setOffset] = useState(0);
  const memory = useMemorySearch(text, minC, offset);
  const { t } = useTranslation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setText(typed);
    setOffset(0);
  };
  const page = memory.data;
  const end = page ? Math.min(offset + page.items.length, page.total) : 0;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("app.memory")}</h1>
        <p className="mt-1 text-slate-600">{t("memory.lead")}</p>
      </div>
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
            {t("memory.searchLabel")}
          </label>
          <input
            id={searchId}
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={t("memory.searchPlaceholder")}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button type="submit">{t("memory.search")}</Button>
        <div className="w-full">
          <label htmlFor={floorId} className="block text-sm font-medium text-slate-800">
            {t("memory.show")}
          </label>
          <select
            id={floorId}
            value={minC}
            onChange={(e) => {
              setMinC(Number(e.target.value));
              setOffset(0);
            }}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
          >
            {FLOORS.map((f) => (
              <option key={f.value} value={f.value}>
                {t(f.label)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {memory.isPending && <p className="text-sm text-slate-500">{t("memory.reading")}</p>}
      {memory.isError && !page && <Alert title={t("memory.readFailed")}>{memory.error.message}</Alert>}
      {page && page.total === 0 && (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          {text.trim() ? t("memory.noMatch") : t("memory.empty")}
        </p>
      )}
      {page && page.total > 0 && (
        <>
          <ul className="space-y-3" aria-label={t("memory.listLabel")}>
            {page.items.map((h) => (
              <HypothesisCard key={h.id} h={h} />
            ))}
          </ul>
          <nav className="flex items-center justify-between text-sm text-slate-600" aria-label={t("memory.pagesLabel")}>
            <span>{t("sessions.range", { from: offset + 1, to: end, total: page.total })}</span>
            <span className="flex gap-2">
              <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - MEMORY_PAGE_SIZE))}>
                {t("memory.previous")}
              </Button>
              <Button variant="secondary" disabled={end >= page.total} onClick={() => setOffset(offset + MEMORY_PAGE_SIZE)}>
                {t("memory.next")}
              </Button>
            </span>
          </nav>
        </>
      )}
    </div>
  );
}
