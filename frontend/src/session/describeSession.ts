/** Words and colours for a session's status and phase, shared by the list and the session page. */
import type { Schemas } from "../api/client";
import type { BadgeTone } from "../components/ui/Badge";

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
 * What a session is doing, from the server's own fields: `running` (the server holds a run lease)
 * and `awaiting_input_type` first, then the stored status. Typed over the generated status enum: a
 * status the backend adds fails the type check until it has words here.
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

export function describeStatus(session: {
  status: string;
  running: boolean;
  awaiting_input_type: string | null;
}): StatusView {
  const status = session.status as SessionStatus;
  if (status === "cancelled" || status === "crystallized") return AT_REST[status];
  if (session.running) return RUNNING[status] ?? { label: "Working", tone: "sky" };
  if (session.awaiting_input_type) return { label: "Needs your review", tone: "amber" };
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
