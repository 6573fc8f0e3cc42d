import type { ParseKeys } from "i18next";
import { lazy, Suspense, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { explainErrorCode } from "../../session/explainErrorCode";
import { PHASE_LABELS, REVIEW_LABELS } from "../../session/describeSession";
import type { ActivityItem } from "../../session/sessionTimeline";
import type { Schemas } from "../../api/client";
import { OfflineModelNote } from "./OfflineModelNote";

// The agent's replies are Markdown: rendered (sanitised) once the renderer has loaded, plain until then.
const MarkdownView = lazy(() => import("./MarkdownView").then((m) => ({ default: m.MarkdownView })));

/**
 * What the agent did, as it happens: its replies, tool calls and results (research with its
 * sources), tool errors explained in plain words, your reviews, phases and resumed runs. The reply
 * the model is writing right now (`draft`, live only) is shown last, marked as in progress, until
 * the stored reply replaces it. Replies are rendered as Markdown (sanitised: raw HTML is dropped).
 * Follows the newest entry unless
 * the reader has scrolled up: only a scroll *upwards* unpins (content growing or the browser's scroll
 * anchoring moving the view must not), and reaching the bottom again pins.
 */
export function AgentActivity({
  items,
  working,
  draft = null,
  model = null,
}: {
  items: readonly ActivityItem[];
  working: boolean;
  draft?: string | null;
  /** The session's model label: the offline model's English is pointed out in other languages. */
  model?: string | null;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  const lastTop = useRef(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [items, working, draft]);
  const writing = draft !== null && draft.trim() !== "";
  if (!items.length && !writing)
    return <p className="text-sm text-slate-500">{working ? t("activity.starting") : t("activity.nothingYet")}</p>;
  return (
    <>
      <OfflineModelNote model={model} className="mb-2" />
      <ol
        ref={box}
        aria-label={t("activity.label")}
        aria-live="polite"
        aria-relevant="additions"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < 40) pinned.current = true;
          else if (el.scrollTop < lastTop.current) pinned.current = false;
          lastTop.current = el.scrollTop;
        }}
        className="max-h-[60vh] space-y-2 overflow-y-auto pr-1 text-sm [overflow-anchor:none]"
        data-testid="activity"
      >
        {items.map((item) => (
          <li key={`${item.kind}-${item.id}`} data-event-id={item.id} data-kind={item.kind}>
            <ActivityEntry item={item} />
          </li>
        ))}
        {writing && (
          <li key="draft" data-kind="draft" aria-busy="true">
            <p className="whitespace-pre-wrap rounded-lg border border-dashed border-slate-300 bg-white p-2.5 leading-relaxed text-slate-700">
              {draft}
              <span className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-indigo-400 align-middle" aria-hidden />
            </p>
            <span className="sr-only">{t("activity.stillWriting")}</span>
          </li>
        )}
        {working && (
          <li className="flex items-center gap-2 text-slate-500" aria-hidden>
            <span className="size-2 animate-pulse rounded-full bg-indigo-500" /> {t("activity.working")}
          </li>
        )}
      </ol>
    </>
  );
}

function ActivityEntry({ item }: { item: ActivityItem }) {
  const { t } = useTranslation();
  switch (item.kind) {
    case "phase":
      return (
        <div className="mt-3 border-t border-slate-200 pt-2 text-xs font-semibold uppercase tracking-wide text-indigo-700">
          {t("activity.phaseRound", { phase: PHASE_LABELS[item.phase], round: item.round + 1 })}
        </div>
      );
    case "resumed":
      return (
        <div className="text-xs text-slate-500" title={t("activity.resumedTitle")}>
          <span aria-hidden>↻ </span>
          {t("activity.resumed", { phase: PHASE_LABELS[item.phase], round: item.round + 1 })}
        </div>
      );
    case "text":
      return (
        <div className="rounded-lg bg-slate-50 p-2.5 leading-relaxed text-slate-800">
          <Suspense fallback={<p className="whitespace-pre-wrap">{item.text}</p>}>
            <MarkdownView markdown={item.text} variant="compact" />
          </Suspense>
        </div>
      );
    case "tool_call":
      return (
        <details className="rounded-md border border-slate-200 px-2.5 py-1.5">
          <summary className="cursor-pointer text-slate-700">
            <span aria-hidden>→ </span>
            <code className="text-xs font-semibold">{item.tool}</code>
          </summary>
          <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-words text-xs text-slate-600">{item.preview}</pre>
        </details>
      );
    case "tool_result":
      return <ToolResult item={item} />;
    case "tool_error":
      return (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-amber-900">
          <p>
            <span aria-hidden>⚠ </span>
            <code className="text-xs font-semibold">{item.tool}</code> {t("activity.refused")} <strong>{item.code}</strong>
          </p>
          <p className="text-xs">{explainErrorCode(item.code)}</p>
          <p className="text-xs text-amber-800/80">{item.message}</p>
        </div>
      );
    case "error":
      return (
        <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-2.5 py-1.5 text-rose-900">
          <strong>{item.code}</strong>: {item.message}
          {item.recoverable && <span className="block text-xs">{t("activity.canRetry")}</span>}
        </div>
      );
    case "user_input":
      return (
        <div className="rounded-md border border-indigo-200 bg-indigo-50 px-2.5 py-1.5 text-indigo-900">
          <span aria-hidden>✎ </span>
          {REVIEW_LABELS[item.reviewType] ?? item.reviewType}: {item.summary}
        </div>
      );
    case "review":
      return <div className="text-xs font-medium text-amber-800">{t("activity.waitingReview")}</div>;
    case "engine_stage": {
      const stage = ENGINE_STAGE_LABELS[item.stage];
      return (
        <div className="rounded-md border border-violet-200 bg-violet-50 px-2.5 py-1.5 text-violet-900">
          <span aria-hidden>✦ </span>
          <strong className="font-semibold">{stage ? t(stage) : item.stage}</strong> — {item.summary}
        </div>
      );
    }
    case "checkpoint":
      return (
        <div className={`rounded-md border px-2.5 py-1.5 ${item.checkpoint.passed ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}>
          <span aria-hidden>{item.checkpoint.passed ? "✓ " : "⚑ "}</span>
          <strong className="font-semibold">{t("activity.supervisor")}</strong> — {item.checkpoint.summary}
        </div>
      );
    case "warning":
      return (
        <div role="note" className="rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-amber-950">
          <span aria-hidden>⚠ </span>
          <strong className="font-semibold">{item.title}</strong> — {item.text}
        </div>
      );
  }
}

// The stages that report an `engine_stage` summary (the others only show progress).
const ENGINE_STAGE_LABELS: Readonly<Partial<Record<Schemas["EngineStage"], ParseKeys>>> = {
  frame: "activity.stageFrame",
  biso: "activity.stageBiso",
  search: "activity.stageSearch",
  score: "activity.stageScore",
  suggested_domains: "activity.stageSuggested",
  verify: "activity.stageVerify",
  solve: "activity.stageSolve",
};

function ToolResult({ item }: { item: Extract<ActivityItem, { kind: "tool_result" }> }) {
  const { t } = useTranslation();
  const data = item.event.data;
  const sources = data.sources ?? []; // absent in logs written before sources were reported
  return (
    <div className="px-2.5 text-slate-700">
      <span className="text-emerald-700" aria-hidden>
        ✓{" "}
      </span>
      <code className="text-xs font-semibold">{data.tool}</code> — {data.summary}
      {sources.length > 0 && (
        <ul className="ml-5 mt-1 list-disc space-y-0.5 text-xs text-slate-600" aria-label={t("activity.sourcesFor", { tool: data.tool })}>
          {sources.map((s) => (
            <li key={s.source}>
              {/^https?:\/\//.test(s.source) ? (
                <a href={s.source} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline">
                  {s.title}
                </a>
              ) : (
                <span title={s.source}>{s.title}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
