/**
 * What the page knows about its link to the server, as a pure state machine: the stream hook
 * feeds it signals (log loaded, stream opened, cut, ended, refused) and the page reads one value.
 *
 * Invariants:
 *   - A network failure (a cut, a server that does not answer, a 5xx) is never final: it leads to
 *     "reconnecting", which counts attempts and remembers when the outage began, until a stream
 *     is accepted again ("live") or the log is read ("idle"). Only the server's own word ends
 *     the follow: a 404 ("not-found"), a deleted session ("deleted"), another 4xx ("failed").
 *   - While reconnecting, a new attempt to open the stream stays "reconnecting" (the notice does
 *     not flicker between attempts).
 *   - "not-found" and "deleted" are final: only a fresh load leaves them.
 */

export type Connection =
  | { readonly kind: "loading" }
  | { readonly kind: "idle" }
  | { readonly kind: "connecting" }
  | { readonly kind: "live" }
  | { readonly kind: "reconnecting"; readonly attempt: number; readonly reason: string | null; readonly since: number }
  | { readonly kind: "not-found" }
  | { readonly kind: "deleted" }
  | { readonly kind: "failed"; readonly message: string };

export type ConnectionKind = Connection["kind"];

export type ConnectionSignal =
  /** Reading the event log (first visit or after a reset). */
  | { readonly type: "load" }
  /** The log was read and nothing needs following, or a follow ended without a cut. */
  | { readonly type: "settled" }
  | { readonly type: "opening" }
  | { readonly type: "opened" }
  /** The server could not be reached or the stream broke; `at` is a clock reading in ms. */
  | { readonly type: "cut"; readonly at: number; readonly reason?: string | null }
  /** The server answered with a 4xx (or closed the stream for good) with this message. */
  | { readonly type: "refused"; readonly status: number; readonly message: string }
  | { readonly type: "deleted" };

export const INITIAL_CONNECTION: Connection = { kind: "loading" };

const FINAL: ReadonlySet<ConnectionKind> = new Set(["not-found", "deleted"]);

export function nextConnection(state: Connection, signal: ConnectionSignal): Connection {
  if (signal.type === "load") return { kind: "loading" };
  if (FINAL.has(state.kind)) return state;
  switch (signal.type) {
    case "settled":
      return { kind: "idle" };
    case "opening":
      return state.kind === "reconnecting" ? state : { kind: "connecting" };
    case "opened":
      return { kind: "live" };
    case "cut":
      return state.kind === "reconnecting"
        ? { ...state, attempt: state.attempt + 1, reason: signal.reason ?? state.reason }
        : { kind: "reconnecting", attempt: 1, reason: signal.reason ?? null, since: signal.at };
    case "refused":
      return signal.status === 404 ? { kind: "not-found" } : { kind: "failed", message: signal.message };
    case "deleted":
      return { kind: "deleted" };
  }
}

/** The agent's work is reaching the page right now (or about to). */
export function isStreaming(connection: Connection): boolean {
  return connection.kind === "live" || connection.kind === "connecting";
}
