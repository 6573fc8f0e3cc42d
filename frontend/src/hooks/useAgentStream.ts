/**
 * The live session: replays the event log, follows the SSE stream while the agent works, and
 * sends reviews. The view is `applyEvents` over everything received, so a reload, a reconnect
 * and a live stream all converge on the same screen.
 *
 * Invariants:
 *   - One stream at a time: starting another (a review's response) aborts the previous one.
 *   - Events are applied through the timeline reducer, which drops ids already applied.
 *   - After a turn ends, the session query is refreshed so status, phase and cost agree.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { UserInput } from "../api/client";
import type { SessionEvent } from "../api/events";
import { followSessionStream, type StreamStatus } from "../api/followSessionStream";
import { loadEventLog, openStream, postAutopilot, postReview, type AutopilotSettings } from "../api/sessionStreams";
import { applyEvents, EMPTY_TIMELINE, type SessionTimeline } from "../session/sessionTimeline";

export type ConnectionState = "loading" | "idle" | StreamStatus | "failed";

type Action = { type: "events"; events: readonly SessionEvent[] } | { type: "reset" };

function reducer(state: SessionTimeline, action: Action): SessionTimeline {
  return action.type === "reset" ? EMPTY_TIMELINE : applyEvents(state, action.events);
}

export interface AgentStream {
  readonly timeline: SessionTimeline;
  readonly connection: ConnectionState;
  readonly streamError: string | null;
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
  const [connection, setConnection] = useState<ConnectionState>("loading");
  const [streamError, setStreamError] = useState<string | null>(null);
  const lastId = useRef(0);
  const current = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();
  const followOnLoad = useRef(options.followOnLoad);
  followOnLoad.current = options.followOnLoad;

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
      setStreamError(null);
      const signal = controller.signal;
      try {
        await followSessionStream(
          {
            open: (after, s) => openStream(sessionId, after, s),
            lastEventId: lastId.current,
            onEvent: (event) => deliver([event]),
            onStatus: (status) => !signal.aborted && setConnection(status),
            signal,
          },
          initial,
        );
        if (!signal.aborted) setConnection("idle");
      } catch (error) {
        if (signal.aborted) return;
        setConnection("failed");
        setStreamError(error instanceof Error ? error.message : String(error));
      } finally {
        if (!signal.aborted) {
          void queryClient.invalidateQueries({ queryKey: ["session", sessionId] });
          void queryClient.invalidateQueries({ queryKey: ["sessions"] });
        }
      }
    },
    [deliver, queryClient, sessionId],
  );

  useEffect(() => {
    let cancelled = false;
    lastId.current = 0;
    dispatch({ type: "reset" });
    setConnection("loading");
    loadEventLog(sessionId)
      .then((events) => {
        if (cancelled) return;
        deliver(events);
        const loaded = applyEvents(EMPTY_TIMELINE, events);
        if (followOnLoad.current(loaded)) void run(new AbortController());
        else setConnection("idle");
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setConnection("failed");
        setStreamError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
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

  return { timeline, connection, streamError, follow, submitReview, runAutopilot };
}
