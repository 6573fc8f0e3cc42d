/** Words and colours for a session's status and phase, shared by the list and the session page. */
import type { Schemas } from "../api/client";
import type { BadgeTone } from "../components/ui/Badge";
import type { ConnectionKind } from "./connectionState";
import type { TurnState } from "./sessionTimeline";

type SessionStatus = Schemas["SessionStatus"];

export const PHASE_LABELS: Record<string, string> = {
  decompose: "Decompose",
  explore: "Explore",
  synthesize: "Synthesize",
  validate: "Validate",
  build: "Build",
  crystallize: "Crystallize",
};

export const REVIEW_LABELS: Record<string, string> = {
  decompose_review: "Review the decomposition",
  explore_review: "Review the exploration",
  claims_review: "Review the claims",
  verdicts: "Give verdicts",
  build_decision: "Decide what to build next",
};

export interface StatusView {
  readonly label: string;
  readonly tone: BadgeTone;
}

/**
 * What a session is doing — the one place the badge's words come from, on the home list and the
 * session page alike. Typed over the generated status enum: a status the backend adds fails the
 * type check until it has words here.
 *
 * Rules, in order:
 *   1. Crystallized and cancelled are final and win over anything else.
 *   2. On the session page the live stream is newer than any fetched resource: a review the
 *      stream delivered waits (even if the run's lease is not yet released); a turn the stream is
 *      following works (even if the fetched resource still names the review just answered); a
 *      lost stream says so instead of guessing.
 *   3. Otherwise the server's fields: the review it awaits first (a lease may outlive the turn by
 *      a moment; a review that waits is the truth the person must act on), then `running`.
 */
const AT_REST: Record<SessionStatus, StatusView> = {
  decomposing: { label: "Paused", tone: "violet" },
  exploring: { label: "Paused", tone: "violet" },
  synthesizing: { label: "Paused", tone: "violet" },
  validating: { label: "Paused", tone: "violet" },
  building: { label: "Paused", tone: "violet" },
  // In CRYSTALLIZE with no document yet (interrupted): resuming writes it.
  crystallizing: { label: "Crystallizing · paused", tone: "violet" },
  crystallized: { label: "Crystallized", tone: "emerald" },
  cancelled: { label: "Cancelled", tone: "slate" },
};

const RUNNING: Partial<Record<SessionStatus, StatusView>> = {
  crystallizing: { label: "Writing the document", tone: "sky" },
};

const NEEDS_REVIEW: StatusView = { label: "Needs your review", tone: "amber" };
const RECONNECTING: StatusView = { label: "Reconnecting…", tone: "slate" };
const STOPPED: StatusView = { label: "Stopped by an error", tone: "rose" };

export interface SessionFields {
  readonly status: string;
  readonly running: boolean;
  readonly awaiting_input_type: string | null;
}

/** What the session page knows from its stream (absent on the home list). */
export interface LiveFacts {
  readonly turn: TurnState;
  /** A review event was delivered and not yet answered. */
  readonly reviewWaiting: boolean;
  readonly connection: ConnectionKind;
  readonly hasDocument: boolean;
}

export function describeStatus(session: SessionFields, live?: LiveFacts): StatusView {
  const status = session.status as SessionStatus;
  if (status === "cancelled" || status === "crystallized") return AT_REST[status];
  if (live?.hasDocument) return AT_REST.crystallized;
  if (live) {
    if (live.connection === "reconnecting") return RECONNECTING;
    const streaming = live.connection === "live" || live.connection === "connecting";
    if (live.reviewWaiting && (!streaming || live.turn === "awaiting_input")) return NEEDS_REVIEW;
    if (streaming) return RUNNING[status] ?? { label: "Working", tone: "sky" };
    if (live.turn === "failed") return STOPPED;
  }
  if (session.awaiting_input_type) return NEEDS_REVIEW;
  if (session.running) return RUNNING[status] ?? { label: "Working", tone: "sky" };
  return AT_REST[status] ?? { label: "Paused", tone: "violet" };
}

export function formatWhen(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return then.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}
