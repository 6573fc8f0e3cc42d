/**
 * One session: phase timeline, live activity, the pending review, the graph and the document.
 * The stream hook owns the event-derived view; the session query owns status and cost.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { ApiError, type Session, type UserInput } from "../api/client";
import { ClaimDetail } from "../components/session/ClaimDetail";
import { ConnectionNotice, LiveAnnouncer } from "../components/session/ConnectionNotice";
import { NowView } from "../components/session/NowView";
import { PhaseTimeline } from "../components/session/PhaseTimeline";
import { SupervisorPanel } from "../components/session/SupervisorPanel";
import { Alert } from "../components/ui/Alert";
import { Badge } from "../components/ui/Badge";
import { Button } from "../components/ui/Button";
import { useAgentStream, type AgentStream } from "../hooks/useAgentStream";
import { useKnowledgeGraph } from "../hooks/useKnowledgeGraph";
import { useCancelSession, useSession } from "../hooks/useSessions";
import { useSupervisor } from "../hooks/useSupervisor";
import { readAutopilot, writeAutopilot, type AutopilotPreference } from "../session/autopilotPreference";
import { describeStatus } from "../session/describeSession";
import type { SessionTimeline } from "../session/sessionTimeline";
import { isStreaming } from "../session/connectionState";
import { decisionCount, NO_DECISIONS, toggleDecision, withDecisions, type SupervisorDecisions } from "../session/supervisorView";

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

type Tab = "now" | "graph" | "supervisor" | "document";

function shouldFollow(session: Session, timeline: SessionTimeline): boolean {
  if (session.status === "cancelled" || session.status === "crystallized") return false;
  if (session.running) return true;
  return timeline.turn === "idle" || timeline.turn === "running";
}

function LiveSession({ session }: { session: Session }) {
  const rawStream = useAgentStream(session.id, { followOnLoad: (t) => shouldFollow(session, t) });
  const [decisions, setDecisions] = useState<SupervisorDecisions>(NO_DECISIONS);
  const clearDecisions = useCallback(() => setDecisions(NO_DECISIONS), []);
  const stream = useSupervisedStream(rawStream, decisions, clearDecisions);
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
      <PhaseTimeline current={timeline.phase} round={timeline.round} finished={finished} checkpoints={timeline.checkpoints} />
      <ConnectionNotice stream={stream} />
      <LiveAnnouncer stream={stream} />
      <nav role="tablist" aria-label="Session views" className="no-print flex flex-wrap gap-1 border-b border-slate-200">
        {(["now", "graph", "supervisor", "document"] as const).map((t) => (
          <button
            key={t}
            role="tab"
            type="button"
            aria-selected={tab === t}
            disabled={t === "document" && !timeline.document}
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium disabled:text-slate-300 ${tab === t ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {{ now: "Now", graph: "Knowledge graph", supervisor: "Supervisor", document: "Document" }[t]}
            {t === "supervisor" && decisionCount(decisions) > 0 && ` (${decisionCount(decisions)})`}
          </button>
        ))}
      </nav>
      {tab === "now" && <NowView session={session} stream={stream} autopilot={autopilot.enabled} working={working} />}
      {tab === "graph" && <GraphView sessionId={session.id} timeline={timeline} />}
      {tab === "supervisor" && (
        <SupervisorView
          sessionId={session.id}
          timeline={timeline}
          decisions={decisions}
          onToggle={(kind, id) => setDecisions((d) => toggleDecision(d, kind, id))}
        />
      )}
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

/** The stream whose reviews carry the person's supervisor decisions (cleared once a review is sent). */
function useSupervisedStream(stream: AgentStream, decisions: SupervisorDecisions, sent: () => void): AgentStream {
  return useMemo(
    () => ({
      ...stream,
      submitReview: async (input: UserInput) => {
        await stream.submitReview(withDecisions(input, decisions));
        sent();
      },
    }),
    [stream, decisions, sent],
  );
}

function SupervisorView({
  sessionId,
  timeline,
  decisions,
  onToggle,
}: {
  sessionId: string;
  timeline: SessionTimeline;
  decisions: SupervisorDecisions;
  onToggle: (kind: keyof SupervisorDecisions, id: string) => void;
}) {
  const supervisor = useSupervisor(sessionId, timeline.supervisorEvents);
  if (supervisor.isPending) return <p className="text-sm text-slate-500">Loading the supervisor…</p>;
  if (supervisor.isError) return <Alert title="Could not load the supervisor">{supervisor.error.message}</Alert>;
  const reviewOpen = timeline.turn === "awaiting_input" && timeline.pendingReview !== null;
  return <SupervisorPanel supervisor={supervisor.data} reviewOpen={reviewOpen} decisions={decisions} onToggle={onToggle} />;
}

function GraphView({ sessionId, timeline }: { sessionId: string; timeline: SessionTimeline }) {
  const version = timeline.turn === "running" ? -1 : timeline.lastEventId;
  const graph = useKnowledgeGraph(sessionId, version);
  const [selected, setSelected] = useState<string | null>(null);
  if (graph.isPending) return <p className="text-sm text-slate-500">Loading the graph…</p>;
  if (graph.isError) return <Alert title="Could not load the graph">{graph.error.message}</Alert>;
  const node = graph.data.nodes.find((n) => n.id === selected);
  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_30rem]">
      <div className="min-w-0">
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
