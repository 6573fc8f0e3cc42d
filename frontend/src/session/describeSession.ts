/** Words and colours for a session's status and phase, shared by the list and the session page. */
import type { BadgeTone } from "../components/ui/Badge";

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

export function describeStatus(session: {
  status: string;
  running: boolean;
  awaiting_input_type: string | null;
}): StatusView {
  if (session.status === "cancelled") return { label: "Cancelled", tone: "slate" };
  if (session.status === "crystallized") return { label: "Crystallized", tone: "emerald" };
  if (session.running) return { label: "Working", tone: "sky" };
  if (session.awaiting_input_type) return { label: "Needs your review", tone: "amber" };
  return { label: "Paused", tone: "violet" };
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
