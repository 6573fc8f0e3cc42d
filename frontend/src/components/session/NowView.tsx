/**
 * The "Now" tab: the pending review (or what the agent is doing: current step, elapsed time), the
 * context meter and the activity. Focus follows the person's work: after a review is sent it lands
 * on the heading that says what happens now, then on the next review's heading.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Session, UserInput } from "../../api/client";
import type { AgentStream } from "../../hooks/useAgentStream";
import { currentStep, formatElapsed } from "../../session/describeProgress";
import { PHASE_LABELS } from "../../session/describeSession";
import type { SessionTimeline } from "../../session/sessionTimeline";
import { Alert } from "../ui/Alert";
import { Card } from "../ui/Card";
import { AgentActivity } from "./AgentActivity";
import { ContextMeter } from "./ContextMeter";
import { EngineProgressBar } from "./EngineProgressBar";
import { ReviewPanel } from "./ReviewPanel";

export function NowView({ session, stream, autopilot, working }: { session: Session; stream: AgentStream; autopilot: boolean; working: boolean }) {
  const { t } = useTranslation();
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
            <Alert tone="info" title={t("now.autopilotTitle")}>
              {t("now.autopilotBody")}
            </Alert>
          ) : (
            <ReviewPanel event={review} sessionId={session.id} onSubmit={submit} disabled={working} />
          )
        ) : timeline.document ? (
          <Alert tone="success" title={t("now.crystallizedTitle")}>
            {t("now.crystallizedBody")}
          </Alert>
        ) : session.status === "cancelled" ? (
          <Alert tone="warning" title={t("now.cancelledTitle")}>
            {t("now.cancelledBody")}
          </Alert>
        ) : (
          <Card>
            <h2 data-focus-target="status" tabIndex={-1} className="text-base font-semibold text-slate-900 outline-none">
              {reconnecting
                ? t("now.waitingConnection")
                : timeline.phase
                  ? t("now.working", { phase: PHASE_LABELS[timeline.phase] })
                  : t("now.starting")}
            </h2>
            {reconnecting ? (
              <p className="mt-1 text-sm text-slate-700">{t("now.serverSilent")}</p>
            ) : (
              <>
                <PhaseProgress timeline={timeline} working={working} />
                <div className="mt-3">
                  <EngineProgressBar progress={timeline.engineProgress} />
                </div>
              </>
            )}
          </Card>
        )}
      </div>
      <div className="min-w-0 space-y-3 lg:col-span-2">
        <Card>
          <ContextMeter usage={timeline.usage} model={session.model} />
        </Card>
        <Card title={t("now.activityTitle")}>
          <AgentActivity items={timeline.activity} working={working} draft={timeline.draft} model={session.model} />
        </Card>
      </div>
    </div>
  );
}

/** The step in progress and how long the phase has run (ticking while the agent works). */
function PhaseProgress({ timeline, working }: { timeline: SessionTimeline; working: boolean }) {
  const { t } = useTranslation();
  const started = usePhaseStart(timeline.phaseEventId, timeline.phaseStartedAt);
  const now = useNow(working);
  const step = currentStep(timeline.activity);
  return (
    <div className="mt-1 space-y-1 text-sm text-slate-700" data-testid="phase-progress">
      {step && (
        <p>
          <span className="font-medium text-slate-900">{t("now.nowLabel")}</span> {step}
          {working ? "…" : "."}
        </p>
      )}
      {started !== null && <p className="text-slate-600">{t("now.elapsed", { elapsed: formatElapsed(now - started) })}</p>}
      <p className="text-slate-600">{t("now.howItWorks")}</p>
    </div>
  );
}

/** When the phase began: its stored time when known, else when this page first saw it start. */
function usePhaseStart(eventId: number | null, storedAt: string | null): number | null {
  const seen = useRef<{ id: number | null; at: number }>({ id: null, at: 0 });
  if (eventId === null) return null;
  const stored = storedAt ? Date.parse(storedAt) : Number.NaN;
  if (Number.isFinite(stored)) return stored;
  if (seen.current.id !== eventId) seen.current = { id: eventId, at: Date.now() };
  return seen.current.at;
}

/** The clock, re-read every second while `ticking`. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return ticking ? now : Date.now();
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
