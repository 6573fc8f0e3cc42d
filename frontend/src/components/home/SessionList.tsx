import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Session } from "../../api/client";
import { PAGE_SIZE, useDeleteSession, useSessionList } from "../../hooks/useSessions";
import { describeStatus, formatWhen, PHASE_LABELS } from "../../session/describeSession";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";

/** Sessions, newest first, a page at a time; delete asks for confirmation first. */
export function SessionList() {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const list = useSessionList(offset);
  const remove = useDeleteSession();
  const [confirming, setConfirming] = useState<Session | null>(null);

  if (list.isPending) return <p className="text-sm text-slate-500">{t("sessions.loading")}</p>;
  // A failed re-fetch (an outage) keeps the list it had and says so; only no data at all is an error.
  if (!list.data) return <Alert title={t("sessions.loadFailed")}>{list.error?.message ?? t("sessions.noAnswer")}</Alert>;
  const { items, total } = list.data;
  if (total === 0)
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
        {t("sessions.empty")}
      </div>
    );
  const pageEnd = Math.min(offset + items.length, total);
  return (
    <div className="space-y-3">
      {(list.isError || list.failureCount > 0) && (
        <Alert tone="warning" title={t("sessions.offlineTitle")}>
          {t("sessions.offlineBody", { when: formatWhen(new Date(list.dataUpdatedAt).toISOString()) })}
        </Alert>
      )}
      {remove.isError && <Alert>{remove.error.message}</Alert>}
      <ul className="divide-y divide-slate-100" aria-label={t("sessions.listLabel")}>
        {items.map((s) => (
          <SessionRow key={s.id} session={s} onDelete={() => setConfirming(s)} />
        ))}
      </ul>
      {confirming && (
        <div role="alertdialog" aria-labelledby="confirm-delete-title" className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm">
          <p id="confirm-delete-title" className="font-medium text-rose-900">
            {t("sessions.confirmDelete", { statement: truncate(confirming.statement, 80) })}
          </p>
          <p className="text-rose-800">{t("sessions.cannotUndo")}</p>
          <div className="mt-2 flex gap-2">
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => remove.mutate(confirming.id, { onSettled: () => setConfirming(null) })}
            >
              {t("sessions.deleteSession")}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)} autoFocus>
              {t("sessions.keep")}
            </Button>
          </div>
        </div>
      )}
      <nav className="flex items-center justify-between text-sm text-slate-600" aria-label={t("sessions.pagesLabel")}>
        <span>{t("sessions.range", { from: offset + 1, to: pageEnd, total })}</span>
        <span className="flex gap-2">
          <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            {t("sessions.newer")}
          </Button>
          <Button variant="secondary" disabled={pageEnd >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            {t("sessions.older")}
          </Button>
        </span>
      </nav>
    </div>
  );
}

function SessionRow({ session, onDelete }: { session: Session; onDelete: () => void }) {
  const { t } = useTranslation();
  const status = describeStatus(session);
  const finished = session.status === "crystallized" || session.status === "cancelled";
  return (
    <li className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="session-row">
      <div className="min-w-0">
        {/* Cut to two lines; the whole statement shows on hover (title) and when the link has focus. */}
        <Link
          to={`/sessions/${session.id}`}
          title={session.statement}
          className="line-clamp-2 break-words font-medium text-slate-900 hover:text-indigo-700 focus-visible:line-clamp-none"
        >
          {session.statement}
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <Badge tone={status.tone}>{status.label}</Badge>
          <span>{t("sessions.phaseRound", { phase: PHASE_LABELS[session.current_phase] ?? session.current_phase, round: session.current_round + 1 })}</span>
          <span>· {formatWhen(session.created_at)}</span>
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link
          to={`/sessions/${session.id}`}
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {finished ? t("sessions.open") : t("sessions.resume")}
        </Link>
        <Button variant="ghost" onClick={onDelete} aria-label={t("sessions.deleteLabel", { statement: truncate(session.statement, 60) })}>
          {t("sessions.delete")}
        </Button>
      </div>
    </li>
  );
}

function truncate(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
