/**
 * One session: phase timeline, live activity, the pending review, the graph and the document.
 * The stream hook owns the event-derived view; the session query owns status and cost.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { ApiError, type Session, type UserInput } from "../api/client";
import { AgentActivity } from "../components/session/AgentActivity";
import { ClaimDetail } from "../components/session/ClaimDetail";
import { ContextMeter } from "../components/session/ContextMeter";
import { PhaseTimeline } from "../components/session/PhaseTimeline";
import { ReviewPanel } from "../components/session/ReviewPanel";
import { Alert } from "../components/ui/Alert";
import { Badge } from "../components/ui/Badge";
import { Button } from "../components/ui/Button";
import { Card } from "../components/ui/Card";
import { useAgentStream, type AgentStream } from "../hooks/useAgentStream";
import { useKnowledgeGraph } from "../hooks/useKnowledgeGraph";
import { useCancelSession, useSession } from "../hooks/useSessions";
import { readAutopilot, writeAutopilot, type AutopilotPreference } from "../session/autopilotPreference";
import { describeStatus, PHASE_LABELS } from "../session/describeSession";
import type { SessionTimeline } from "../session/sessionTimeline";
import { isStreaming } from "../session/connectionState";

// The graph library and the Markdown renderer load when their tab is first opened.
const KnowledgeGraph = lazy(async () => ({ default: (await import("../components/session/KnowledgeGraph")).KnowledgeGraph }));
const KnowledgeDocument = lazy(async () => ({ default: (await import("../components/session/KnowledgeDocument")).KnowledgeDocument }));

export function SessionPage() {
  const { sessionId = "" } = useParams();
  const session = useSession(sessionId);
  // Once shown, the session stays on screen whatever a later re-fetch meets (an outage keeps the
  // last data; the stream's notice says the connection is lost). Only the server's 404 is "not found".
  if (session.data) return <LiveSession key={sessionId} session={session.data} />;
  if (session.isError && session.error instanceof ApiError && session.error.status === 404) return <SessionNotFound />;
  if (session.isError)
    return (
      <Alert title="This session could not be opened">
        {session.error.message} <Link to="/" className="underline">Back to your sessions</Link>
      </Alert>
    );
  if (session.failureCount > 0)
    return (
      <Alert tone="warning" title="Cannot reach the server — retrying">
        The page opens the session by itself as soon as the server answers.
      </Alert>
    );
  return <p className="text-slate-500">Loading the session…</p>;
}

function SessionNotFound() {
  return (
    <Alert title="Session not found">
      <h1 className="sr-only">Session not found</h1>
      It may have been deleted. <Link to="/" className="underline">Back to your sessions</Link>
    </Alert>
  );
}

type Tab = "now" | "graph" | "document";

function shouldFollow(session: Session, timeline: SessionTimeline): boolean {
  if (session.status === "cancelled" || session.status === "crystallized") return false;
  if (session.running) return true;
  return timeline.turn === "idle" || timeline.turn === "running";
}

function LiveSession({ session }: { session: Session }) {
  const stream = useAgentStream(session.id, { followOnLoad: (t) => shouldFollow(session, t) });
  const { timeline } = stream;
  const [tab, setTab] = useState<Tab>("now");
  const [autopilot, setAutopilot] = useState<AutopilotPreference>(() => readAutopilot(session.id));
  const cancel = useCancelSession(session.id);
  useAutopilot(stream, autopilot);
  useEffect(() => {
    if (timeline.document) setTab("document");
  }, [timeline.document]);

  // The server's own `running` (its run lease) and `awaiting_input_type`; the stream hook refreshes
  // the session when a run starts, changes phase or ends.
  const working = isStreaming(stream.link);
  const status = describeStatus(session, {
    turn: timeline.turn,
    reviewWaiting: timeline.pendingReview !== null,
    connection: stream.connection,
    hasDocument: timeline.document !== null,
  });
  const finished = session.status === "crystallized" || timeline.document !== null;
  const toggleAutopilot = (enabled: boolean) => {
    const next = { ...autopilot, enabled };
    setAutopilot(next);
    writeAutopilot(session.id, next);
  };

  return (
    <div className="space-y-4" data-testid="session-page" data-turn={timeline.turn} data-connection={stream.connection}>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={status.tone}>{status.label}</Badge>
          <span className="text-slate-500">{session.model}</span>
        </div>
        <h1 className="whitespace-pre-line text-xl font-semibold leading-snug sm:text-2xl">{session.statement}</h1>
        {session.constraints.length > 0 && (
          <ul aria-label="Constraints" className="flex flex-wrap gap-1.5">
            {session.constraints.map((constraint) => (
              <li key={constraint}>
                <Badge tone="amber">{constraint}</Badge>
              </li>
            ))}
          </ul>
        )}
        <div className="no-print flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" checked={autopilot.enabled} disabled={finished} onChange={(e) => toggleAutopilot(e.target.checked)} />
            Autopilot answers reviews
          </label>
          {!finished && session.status !== "cancelled" && (
            <Button variant="ghost" busy={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel session
            </Button>
          )}
        </div>
        {cancel.isError && <Alert>{cancel.error.message}</Alert>}
      </header>
      <PhaseTimeline current={timeline.phase} round={timeline.round} finished={finished} />
      <ConnectionNotice stream={stream} />
      <LiveAnnouncer stream={stream} />
      <nav role="tablist" aria-label="Session views" className="no-print flex gap-1 border-b border-slate-200">
        {(["now", "graph", "document"] as const).map((t) => (
          <button
            key={t}
            role="tab"
            type="button"
            aria-selected={tab === t}
            disabled={t === "document" && !timeline.document}
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium disabled:text-slate-300 ${tab === t ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {{ now: "Now", graph: "Knowledge graph", document: "Document" }[t]}
          </button>
        ))}
      </nav>
      {tab === "now" && <NowView session={session} stream={stream} autopilot={autopilot.enabled} working={working} />}
      {tab === "graph" && <GraphView sessionId={session.id} timeline={timeline} />}
      {tab === "document" && timeline.document && (
        <Suspense fallback={<p className="text-sm text-slate-500">Loading the document…</p>}>
          <KnowledgeDocument sessionId={session.id} markdown={timeline.document} />
        </Suspense>
      )}
    </div>
  );
}

/** When autopilot is on and a review waits, hand it to the server's policy — once per review. */
function useAutopilot(stream: AgentStream, pref: AutopilotPreference) {
  const answered = useRef<number | null>(null);
  const { pendingReview, turn } = stream.timeline;
  useEffect(() => {
    if (!pref.enabled || !pendingReview || turn !== "awaiting_input") return;
    if (stream.connection !== "idle" || answered.current === pendingReview.id) return;
    answered.current = pendingReview.id;
    stream.runAutopilot({ accept_threshold: pref.acceptThreshold, rounds: pref.rounds }).catch(() => {
      answered.current = null;
    });
  }, [pref, pendingReview, turn, stream]);
}

function ConnectionNotice({ stream }: { stream: AgentStream }) {
  const { link } = stream;
  if (link.kind === "reconnecting")
    return (
      <Alert tone="warning" title="Connection lost — reconnecting…">
        <span data-testid="reconnecting">
          {link.reason ? `${link.reason} ` : ""}
          Everything shown here stays, and nothing recorded on the server is lost; the page picks up where it left off as soon as
          the server answers{link.attempt > 1 ? ` (attempt ${link.attempt})` : ""}.
        </span>
      </Alert>
    );
  if (link.kind === "not-found")
    return (
      <Alert title="Session not found">
        <p>
          The server no longer knows this session.{" "}
          <Link to="/" className="underline">
            Back to your sessions
          </Link>
        </p>
      </Alert>
    );
  if (stream.sessionDeleted)
    return (
      <Alert title="This session was deleted">
        <p>
          It no longer exists on the server, so there is nothing more to follow.{" "}
          <Link to="/" className="underline">
            Back to your sessions
          </Link>
        </p>
      </Alert>
    );
  if (stream.connection === "failed" && stream.streamError)
    return (
      <Alert title="The live view stopped">
        <p>{stream.streamError}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          Try again
        </Button>
      </Alert>
    );
  if (stream.timeline.turn === "failed" && stream.connection === "idle")
    return (
      <Alert title="The agent stopped with an error">
        <p>{stream.timeline.lastError?.message ?? "See the activity for details."}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          Resume the session
        </Button>
      </Alert>
    );
  return null;
}

function NowView({ session, stream, autopilot, working }: { session: Session; stream: AgentStream; autopilot: boolean; working: boolean }) {
  const { timeline } = stream;
  const review = timeline.turn === "awaiting_input" ? timeline.pendingReview : null;
  const focusNext = useFocusAfterReview(review?.id ?? null);
  const submit = async (input: UserInput) => {
    await stream.submitReview(input);
    focusNext();
  };
  const reconnecting = stream.connection === "reconnecting";
  return (
    <div className="grid gap-4 lg:grid-cols-5">
      <div className="min-w-0 space-y-4 lg:col-span-3">
        {review ? (
          autopilot ? (
            <Alert tone="info" title="Autopilot is answering this review">Switch autopilot off to answer it yourself.</Alert>
          ) : (
            <ReviewPanel event={review} sessionId={session.id} onSubmit={submit} disabled={working} />
          )
        ) : timeline.document ? (
          <Alert tone="success" title="The session is crystallized">Open the Document tab to read or download it.</Alert>
        ) : session.status === "cancelled" ? (
          <Alert tone="warning" title="This session was cancelled">Its work so far stays available in the graph and the activity.</Alert>
        ) : (
          <Card>
            <h2 data-focus-target="status" tabIndex={-1} className="text-base font-semibold text-slate-900 outline-none">
              {reconnecting
                ? "Waiting for the connection"
                : timeline.phase
                  ? `The agent is working on ${PHASE_LABELS[timeline.phase]}`
                  : "The agent is starting"}
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {reconnecting
                ? "The server is not answering right now. What the agent did is kept there and shows up here once the connection is back."
                : "Its steps appear in the activity as they happen; you will be asked to review when the phase is done."}
            </p>
          </Card>
        )}
      </div>
      <div className="min-w-0 space-y-3 lg:col-span-2">
        <Card>
          <ContextMeter usage={timeline.usage} model={session.model} />
        </Card>
        <Card title="Agent activity">
          <AgentActivity items={timeline.activity} working={working} draft={timeline.draft} />
        </Card>
      </div>
    </div>
  );
}

/**
 * After a review is sent its form disappears: move focus to the heading that says what happens
 * now, and when the next review arrives while focus is there (or lost to the page), to its heading.
 * Keyboard and screen-reader users never land on the page body.
 */
function useFocusAfterReview(reviewId: number | null): () => void {
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    const target = reviewId === null ? "status" : "review";
    const active = document.activeElement;
    const lost = active === null || active === document.body || active.getAttribute("data-focus-target") === "status";
    if (reviewId === null || lost) document.querySelector<HTMLElement>(`[data-focus-target="${target}"]`)?.focus();
    if (reviewId !== null) pending.current = false;
  }, [reviewId]);
  return () => {
    pending.current = true;
    document.querySelector<HTMLElement>('[data-focus-target="status"]')?.focus();
  };
}

/** A polite live region that says what changed: the phase, a review that waits, the connection. */
function LiveAnnouncer({ stream }: { stream: AgentStream }) {
  const { timeline, connection } = stream;
  let message = "";
  if (connection === "reconnecting") message = "Connection lost. Reconnecting.";
  else if (timeline.document) message = "The session is crystallized. The document is ready.";
  else if (timeline.turn === "awaiting_input" && timeline.pendingReview) message = `${PHASE_LABELS[timeline.phase ?? "decompose"]} is done: your review is ready.`;
  else if (timeline.phase) message = `Phase: ${PHASE_LABELS[timeline.phase]}${timeline.round > 0 ? `, round ${timeline.round + 1}` : ""}.`;
  return (
    <p className="sr-only" role="status" aria-live="polite" data-testid="announcer">
      {message}
    </p>
  );
}

function GraphView({ sessionId, timeline }: { sessionId: string; timeline: SessionTimeline }) {
  const version = timeline.turn === "running" ? -1 : timeline.lastEventId;
  const graph = useKnowledgeGraph(sessionId, version);
  const [selected, setSelected] = useState<string | null>(null);
  if (graph.isPending) return <p className="text-sm text-slate-500">Loading the graph…</p>;
  if (graph.isError) return <Alert title="Could not load the graph">{graph.error.message}</Alert>;
  const node = graph.data.nodes.find((n) => n.id === selected);
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <Suspense fallback={<p className="text-sm text-slate-500">Loading the graph…</p>}>
          <KnowledgeGraph graph={graph.data} onSelect={setSelected} selectedId={selected} />
        </Suspense>
      </div>
      <div>
        {node ? (
          <ClaimDetail node={node} claim={timeline.claimsById[node.id]} onClose={() => setSelected(null)} />
        ) : (
          <p className="text-sm text-slate-500">Click a claim to see its evidence and scores.</p>
        )}
      </div>
    </div>
  );
}
