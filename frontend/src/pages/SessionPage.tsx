/**
 * One session: phase timeline, live activity, the pending review, the graph and the document; once
 * finished, the Answer tab (the AnswerPack) comes first and is shown.
 * The stream hook owns the event-derived view; the session query owns status and cost.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { ApiError, type Session, type UserInput } from "../api/client";
import { ClaimDetail } from "../components/session/ClaimDetail";
import { GraphmlDownload } from "../components/session/GraphmlDownload";
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
import { sessionTabs, type SessionTab } from "../session/answerView";

// The graph library and the Markdown renderer load when their tab is first opened.
const KnowledgeGraph = lazy(async () => ({ default: (await import("../components/session/KnowledgeGraph")).KnowledgeGraph }));
const KnowledgeDocument = lazy(async () => ({ default: (await import("../components/session/KnowledgeDocument")).KnowledgeDocument }));
const AnswerView = lazy(async () => ({ default: (await import("../components/session/AnswerView")).AnswerView }));

export function SessionPage() {
  const { sessionId = "" } = useParams();
  const session = useSession(sessionId);
  const { t } = useTranslation();
  // Once shown, the session stays on screen whatever a later re-fetch meets (an outage keeps the
  // last data; the stream's notice says the connection is lost). Only the server's 404 is "not found".
  if (session.data) return <LiveSession key={sessionId} session={session.data} />;
  if (session.isError && session.error instanceof ApiError && session.error.status === 404) return <SessionNotFound />;
  if (session.isError)
    return (
      <Alert title={t("session.openFailed")}>
        {session.error.message} <Link to="/" className="underline">{t("connection.back")}</Link>
      </Alert>
    );
  if (session.failureCount > 0)
    return (
      <Alert tone="warning" title={t("sessions.offlineTitle")}>
        {t("session.opensItself")}
      </Alert>
    );
  return <p className="text-slate-500">{t("session.loading")}</p>;
}

function SessionNotFound() {
  const { t } = useTranslation();
  return (
    <Alert title={t("connection.notFoundTitle")}>
      <h1 className="sr-only">{t("connection.notFoundTitle")}</h1>
      {t("session.mayBeDeleted")} <Link to="/" className="underline">{t("connection.back")}</Link>
    </Alert>
  );
}

type Tab = SessionTab;

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
  const { t } = useTranslation();
  useAutopilot(stream, autopilot);
  useEffect(() => {
    if (timeline.document) setTab("answer");
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
          <ul aria-label={t("session.constraints")} className="flex flex-wrap gap-1.5">
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
            {t("session.autopilotAnswers")}
          </label>
          {!finished && session.status !== "cancelled" && (
            <Button variant="ghost" busy={cancel.isPending} onClick={() => cancel.mutate()}>
              {t("session.cancel")}
            </Button>
          )}
        </div>
        {cancel.isError && <Alert>{cancel.error.message}</Alert>}
      </header>
      <PhaseTimeline current={timeline.phase} round={timeline.round} finished={finished} checkpoints={timeline.checkpoints} />
      <ConnectionNotice stream={stream} />
      <LiveAnnouncer stream={stream} />
      <nav role="tablist" aria-label={t("session.views")} className="no-print flex flex-wrap gap-1 border-b border-slate-200">
        {sessionTabs(finished).map((name) => (
          <button
            key={name}
            role="tab"
            type="button"
            aria-selected={tab === name}
            disabled={name === "document" && !timeline.document}
            onClick={() => setTab(name)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium disabled:text-slate-300 ${tab === name ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {t(`session.tab.${name}`)}
            {name === "supervisor" && decisionCount(decisions) > 0 && ` (${decisionCount(decisions)})`}
          </button>
        ))}
      </nav>
      {tab === "answer" && finished && (
        <Suspense fallback={<p className="text-sm text-slate-500">{t("answer.loading")}</p>}>
          <AnswerView sessionId={session.id} />
        </Suspense>
      )}
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
        <Suspense fallback={<p className="text-sm text-slate-500">{t("session.loadingDocument")}</p>}>
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
  const { t } = useTranslation();
  if (supervisor.isPending) return <p className="text-sm text-slate-500">{t("session.loadingSupervisor")}</p>;
  if (supervisor.isError) return <Alert title={t("session.supervisorFailed")}>{supervisor.error.message}</Alert>;
  const reviewOpen = timeline.turn === "awaiting_input" && timeline.pendingReview !== null;
  return <SupervisorPanel supervisor={supervisor.data} reviewOpen={reviewOpen} decisions={decisions} onToggle={onToggle} />;
}

function GraphView({ sessionId, timeline }: { sessionId: string; timeline: SessionTimeline }) {
  const version = timeline.turn === "running" ? -1 : timeline.lastEventId;
  const graph = useKnowledgeGraph(sessionId, version);
  const [selected, setSelected] = useState<string | null>(null);
  const { t } = useTranslation();
  if (graph.isPending) return <p className="text-sm text-slate-500">{t("session.loadingGraph")}</p>;
  if (graph.isError) return <Alert title={t("session.graphFailed")}>{graph.error.message}</Alert>;
  const node = graph.data.nodes.find((n) => n.id === selected);
  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_30rem]">
      <div className="min-w-0 space-y-2">
        <Suspense fallback={<p className="text-sm text-slate-500">{t("session.loadingGraph")}</p>}>
          <KnowledgeGraph graph={graph.data} onSelect={setSelected} selectedId={selected} />
        </Suspense>
        {graph.data.nodes.length > 0 && <GraphmlDownload sessionId={sessionId} className="text-sm text-indigo-700 underline" />}
      </div>
      <div>
        {node ? (
          <ClaimDetail node={node} claim={timeline.claimsById[node.id]} onClose={() => setSelected(null)} />
        ) : (
          <p className="text-sm text-slate-500">{t("session.clickClaim")}</p>
        )}
      </div>
    </div>
  );
}
