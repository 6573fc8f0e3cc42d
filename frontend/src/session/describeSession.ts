/**
 * Words and colours for a session's status and phase, shared by the list and the session page.
 * The words are read in the UI's language at the moment they are asked for (`i18n.t`): the label
 * tables keep their shape (`PHASE_LABELS[phase]`) with a getter per entry.
 */
import type { ParseKeys } from "i18next";
import type { Schemas } from "../api/client";
import { currentLanguage, i18n } from "../i18n/i18n";
import type { BadgeTone } from "../components/ui/Badge";
import type { ConnectionKind } from "./connectionState";
import type { TurnState } from "./sessionTimeline";

type SessionStatus = Schemas["SessionStatus"];

/** A table whose values are translated each time they are read (a language switch shows at once). */
function translatedTable<K extends string>(keys: Readonly<Record<K, ParseKeys>>): Readonly<Record<string, string>> {
  const table: Record<string, string> = {};
  for (const [name, key] of Object.entries(keys) as [K, ParseKeys][])
    Object.defineProperty(table, name, { enumerable: true, get: () => i18n.t(key) });
  return table;
}

export const PHASE_LABELS: Readonly<Record<string, string>> = translatedTable({
  decompose: "phases.decompose",
  explore: "phases.explore",
  synthesize: "phases.synthesize",
  validate: "phases.validate",
  build: "phases.build",
  crystallize: "phases.crystallize",
});

export const REVIEW_LABELS: Readonly<Record<string, string>> = translatedTable({
  decompose_review: "reviewType.decompose_review",
  explore_review: "reviewType.explore_review",
  claims_review: "reviewType.claims_review",
  verdicts: "reviewType.verdicts",
  build_decision: "reviewType.build_decision",
});

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
interface StatusWords {
  readonly key: ParseKeys;
  readonly tone: BadgeTone;
}

const PAUSED: StatusWords = { key: "status.paused", tone: "violet" };
const AT_REST: Record<SessionStatus, StatusWords> = {
  decomposing: PAUSED,
  exploring: PAUSED,
  synthesizing: PAUSED,
  validating: PAUSED,
  building: PAUSED,
  // In CRYSTALLIZE with no document yet (interrupted): resuming writes it.
  crystallizing: { key: "status.crystallizingPaused", tone: "violet" },
  crystallized: { key: "status.crystallized", tone: "emerald" },
  cancelled: { key: "status.cancelled", tone: "slate" },
};

const RUNNING: Partial<Record<SessionStatus, StatusWords>> = {
  crystallizing: { key: "status.writingDocument", tone: "sky" },
};

const WORKING: StatusWords = { key: "status.working", tone: "sky" };
const NEEDS_REVIEW: StatusWords = { key: "status.needsReview", tone: "amber" };
const RECONNECTING: StatusWords = { key: "status.reconnecting", tone: "slate" };
const STOPPED: StatusWords = { key: "status.stopped", tone: "rose" };

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
  const words = statusWords(session, live);
  return { label: i18n.t(words.key), tone: words.tone };
}

function statusWords(session: SessionFields, live?: LiveFacts): StatusWords {
  const status = session.status as SessionStatus;
  if (status === "cancelled" || status === "crystallized") return AT_REST[status];
  if (live?.hasDocument) return AT_REST.crystallized;
  if (live) {
    if (live.connection === "reconnecting") return RECONNECTING;
    const streaming = live.connection === "live" || live.connection === "connecting";
    if (live.reviewWaiting && (!streaming || live.turn === "awaiting_input")) return NEEDS_REVIEW;
    if (streaming) return RUNNING[status] ?? WORKING;
    if (live.turn === "failed") return STOPPED;
  }
  if (session.awaiting_input_type) return NEEDS_REVIEW;
  if (session.running) return RUNNING[status] ?? WORKING;
  return AT_REST[status] ?? PAUSED;
}

/** "just now", "5 minutes ago", "3 hours ago", then the date: in the UI's language. */
export function formatWhen(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return i18n.t("when.justNow");
  const relative = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: "always" });
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), "hour");
  return then.toLocaleDateString(currentLanguage(), { year: "numeric", month: "short", day: "numeric" });
}
