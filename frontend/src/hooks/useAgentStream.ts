/**
 * The live session: replays the event log, follows the SSE stream while the agent works, and
 * sends reviews. The view is `applyEvents` over everything received, so a reload, a reconnect
 * and a live stream all converge on the same screen.
 *
 * Invariants:
 *   - One stream at a time: starting another (a review's response) aborts the previous one.
 *   - Events are applied through the timeline reducer, which drops ids already applied. Live
 *     events (the reply being written) only touch the draft; every (re)connection and the end
 *     of a follow drop it.
 *   - The session query (status, `running`, `awaiting_input_type`, cost) is refreshed when a stream
 *     is accepted, at each phase change or review answer, and when a turn ends, so the status badge
 *     can rely on the server's `running` instead of guessing from the connection.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { retryDelayMs } from "../api/backoff";
import { ApiError, isTransientFailure, type UserInput } from "../api/client";
import type { EventType, LiveEvent, SessionEvent } from "../api/events";
import { followSessionStream, StreamClosedError, type StreamStatus } from "../api/followSessionStream";
import { loadEventLog, openStream, postAutopilot, postReview, type AutopilotSettings } from "../api/sessionStreams";
import { INITIAL_CONNECTION, nextConnection, type Connection, type ConnectionKind } from "../session/connectionState";
import { applyEvents, applyLiveEvent, dropDraft, EMPTY_TIMELINE, type SessionTimeline } from "../session/sessionTimeline";

export type { ConnectionKind as ConnectionState } from "../session/connectionState";

type Action =
  | { type: "events"; events: readonly SessionEvent[] }
  | { type: "live"; event: LiveEvent }
  /** A (re)connection was accepted, or the follow ended: the draft is void. */
  | { type: "drop-draft" }
  | { type: "reset" };

function reducer(state: SessionTimeline, action: Action): SessionTimeline {
  switch (action.type) {
    case "reset":
      return EMPTY_TIMELINE;
    case "events":
      return applyEvents(state, action.events);
    case "live":
      return applyLiveEvent(state, action.event);
    case "drop-draft":
      return dropDraft(state);
  }
}

/** Stored events after which the session resource (status, phase, awaiting input) has changed; a
 * turn's end refreshes it anyway. */
const REFRESHES_SESSION: ReadonlySet<EventType> = new Set(["phase_change", "user_input", "knowledge_document"]);

export interface AgentStream {
  readonly timeline: SessionTimeline;
  readonly connection: ConnectionKind;
  /** The whole connection state (attempts and outage start while reconnecting). */
  readonly link: Connection;
  readonly streamError: string | null;
  /** The server deleted the session while it was followed (the stream ended with SESSION_DELETED). */
  readonly sessionDeleted: boolean;
  /** Why the view is reconnecting, when the server said so (e.g. it is shutting down). */
  readonly reconnectReason: string | null;
  /** Opens the stream (starts or resumes the agent when the session has work). */
  readonly follow: () => void;
  /** Sends a review; rejects with the API's message (nothing changes) when it is refused. */
  readonly submitReview: (input: UserInput) => Promise<void>;
  readonly runAutopilot: (settings: AutopilotSettings) => Promise<void>;
}

export interface AgentStreamOptions {
  /** Open the stream once the log is loaded (for a session that is running or has work). */
  readonly followOnLoad: (timeline: SessionTimeline) => boolean;
}

export function useAgentStream(sessionId: string, options: AgentStreamOptions): AgentStream {
  const [timeline, dispatch] = useReducer(reducer, EMPTY_TIMELINE);
  const [link, signal] = useReducer(nextConnection, INITIAL_CONNECTION);
  const lastId = useRef(0);
  const current = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();
  const followOnLoad = useRef(options.followOnLoad);
  followOnLoad.current = options.followOnLoad;

  const refreshSession = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ["session", sessionId] });
    void queryClient.invalidateQueries({ queryKey: ["sessions"] });
  }, [queryClient, sessionId]);

  const deliver = useCallback((events: readonly SessionEvent[]) => {
    const fresh = events.filter((e) => e.id > lastId.current);
    if (!fresh.length) return;
    lastId.current = fresh[fresh.length - 1]!.id;
    dispatch({ type: "events", events: fresh });
  }, []);

  const run = useCallback(
    async (controller: AbortController, initial?: Response) => {
      if (current.current !== controller) current.current?.abort();
      current.current = controller;
      const aborted = controller.signal;
      let deleted = false;
      try {
        await followSessionStream(
          {
            open: (after, s) => openStream(sessionId, after, s),
            lastEventId: lastId.current,
            onEvent: (event) => {
              deliver([event]);
              if (REFRESHES_SESSION.has(event.type)) refreshSession();
            },
            onLive: (event) => !aborted.aborted && dispatch({ type: "live", event }),
            onConnected: () => {
              if (aborted.aborted) return;
              dispatch({ type: "drop-draft" });
              refreshSession(); // the run's lease is taken before the stream is answered
            },
            onStatus: (status, reason) => !aborted.aborted && signal(statusSignal(status, reason)),
            networkLost: onBrowserOffline,
            signal: aborted,
          },
          initial,
        );
        if (!aborted.aborted) signal({ type: "settled" });
      } catch (error) {
        if (aborted.aborted) return;
        deleted = error instanceof StreamClosedError && error.code === "SESSION_DELETED";
        signal(deleted ? { type: "deleted" } : refusal(error));
      } finally {
        if (!aborted.aborted) {
          dispatch({ type: "drop-draft" }); // nothing follows a draft once the follow has ended
          // A deleted session has no resource to refresh: keep the page and say what happened.
          if (!deleted) refreshSession();
        }
      }
    },
    [deliver, refreshSession, sessionId],
  );

  useEffect(() => {
    const controller = new AbortController();
    lastId.current = 0;
    dispatch({ type: "reset" });
    signal({ type: "load" });
    loadLogUntilReached(sessionId, controller.signal, () => signal({ type: "cut", at: Date.now() }))
      .then((events) => {
        if (controller.signal.aborted) return;
        deliver(events);
        const loaded = applyEvents(EMPTY_TIMELINE, events);
        if (followOnLoad.current(loaded)) void run(new AbortController());
        else signal({ type: "settled" });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) signal(refusal(error));
      });
    return () => {
      controller.abort();
      current.current?.abort();
    };
  }, [sessionId, deliver, run]);

  const follow = useCallback(() => void run(new AbortController()), [run]);

  const submitReview = useCallback(
    async (input: UserInput) => {
      // Throws (with the API's message) before any stream is touched when the review is refused.
      const controller = new AbortController();
      const response = await postReview(sessionId, input, controller.signal);
      void run(controller, response);
    },
    [run, sessionId],
  );

  const runAutopilot = useCallback(
    async (settings: AutopilotSettings) => {
      const controller = new AbortController();
      const response = await postAutopilot(sessionId, settings, controller.signal);
      void run(controller, response);
    },
    [run, sessionId],
  );

  return {
    timeline,
    connection: link.kind,
    link,
    streamError: link.kind === "failed" ? link.message : null,
    sessionDeleted: link.kind === "deleted",
    reconnectReason: link.kind === "reconnecting" ? link.reason : null,
    follow,
    submitReview,
    runAutopilot,
  };
}

/** The browser says the network is gone (a cable pulled, Wi-Fi lost): cut at once. */
function onBrowserOffline(onLost: () => void): () => void {
  window.addEventListener("offline", onLost);
  return () => window.removeEventListener("offline", onLost);
}

function statusSignal(status: StreamStatus, reason: string | undefined) {
  if (status === "reconnecting") return { type: "cut", at: Date.now(), reason: reason ?? null } as const;
  return { type: status === "live" ? "opened" : "opening" } as const;
}

/** The signal for a follow or load that failed for good: the server's 4xx, or anything else as a failure. */
function refusal(error: unknown) {
  const status = error instanceof ApiError ? error.status : 0;
  return { type: "refused", status, message: error instanceof Error ? error.message : String(error) } as const;
}

/** Reads the event log, retrying with backoff while the server cannot be reached; a 4xx is thrown. */
async function loadLogUntilReached(sessionId: string, aborted: AbortSignal, onOutage: () => void): Promise<SessionEvent[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await loadEventLog(sessionId);
    } catch (error) {
      if (aborted.aborted || !isTransientFailure(error)) throw error;
      onOutage();
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}
