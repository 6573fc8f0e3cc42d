import { useState } from "react";
import { Link } from "react-router";
import type { Session } from "../../api/client";
import { PAGE_SIZE, useDeleteSession, useSessionList } from "../../hooks/useSessions";
import { describeStatus, formatWhen, PHASE_LABELS } from "../../session/describeSession";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";

/** Sessions, newest first, a page at a time; delete asks for confirmation first. */
export function SessionList() {
  const [offset, setOffset] = useState(0);
  const list = useSessionList(offset);
  const remove = useDeleteSession();
  const [confirming, setConfirming] = useState<Session | null>(null);

  if (list.isPending) return <p className="text-sm text-slate-500">Loading sessions…</p>;
  // A failed re-fetch (an outage) keeps the list it had and says so; only no data at all is an error.
  if (!list.data) return <Alert title="Could not load your sessions">{list.error?.message ?? "The server did not answer."}</Alert>;
  const { items, total } = list.data;
  if (total === 0)
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
        No sessions yet. Describe a problem to start your first one.
      </div>
    );
  const pageEnd = Math.min(offset + items.length, total);
  return (
    <div className="space-y-3">
      {(list.isError || list.failureCount > 0) && (
        <Alert tone="warning" title="Cannot reach the server — retrying">
          This list is from {formatWhen(new Date(list.dataUpdatedAt).toISOString())} and refreshes by itself once the server answers.
        </Alert>
      )}
      {remove.isError && <Alert>{remove.error.message}</Alert>}
      <ul className="divide-y divide-slate-100" aria-label="Sessions">
        {items.map((s) => (
          <SessionRow key={s.id} session={s} onDelete={() => setConfirming(s)} />
        ))}
      </ul>
      {confirming && (
        <div role="alertdialog" aria-labelledby="confirm-delete-title" className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm">
          <p id="confirm-delete-title" className="font-medium text-rose-900">
            Delete “{truncate(confirming.statement, 80)}” and everything it produced?
          </p>
          <p className="text-rose-800">This cannot be undone.</p>
          <div className="mt-2 flex gap-2">
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => remove.mutate(confirming.id, { onSettled: () => setConfirming(null) })}
            >
              Delete session
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)} autoFocus>
              Keep it
            </Button>
          </div>
        </div>
      )}
      <nav className="flex items-center justify-between text-sm text-slate-600" aria-label="Pages of sessions">
        <span>
          {offset + 1}–{pageEnd} of {total}
        </span>
        <span className="flex gap-2">
          <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Newer
          </Button>
          <Button variant="secondary" disabled={pageEnd >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Older
          </Button>
        </span>
      </nav>
    </div>
  );
}

function SessionRow({ session, onDelete }: { session: Session; onDelete: () => void }) {
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
          <span>
            {PHASE_LABELS[session.current_phase] ?? session.current_phase} · round {session.current_round + 1}
          </span>
          <span>· {formatWhen(session.created_at)}</span>
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link
          to={`/sessions/${session.id}`}
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {finished ? "Open" : "Resume"}
        </Link>
        <Button variant="ghost" onClick={onDelete} aria-label={`Delete session: ${truncate(session.statement, 60)}`}>
          Delete
        </Button>
      </div>
    </li>
  );
}

function truncate(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
