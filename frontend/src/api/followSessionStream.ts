/**
 * Follows a session's SSE stream until the agent's turn ends, reconnecting by itself.
 *
 * Invariants:
 *   - Every (re)connection sends `Last-Event-ID` = the last event id delivered, so the server
 *     replays exactly what was missed; ids at or below it are never delivered twice.
 *   - A `done` event ends the follow ("done"). A stream the server closes cleanly without one
 *     means nothing runs (the session is paused or finished): the follow ends ("ended").
 *   - A stream that breaks (network error, truncated body) or stays silent past the stall limit
 *     — the server sends heartbeats — is a cut: reconnect after a growing delay, which resets
 *     once events flow again.
 *   - A 4xx answer is final (the session cannot be streamed: deleted, cancelled...); it is thrown
 *     with the API's message. Network errors and 5xx are retried.
 */
import { ApiError, ensureOk } from "./client";
import { eventFromFrame, type SessionEvent } from "./events";
import { SseFrameParser } from "./parseSseFrames";

export type StreamStatus = "connecting" | "live" | "reconnecting";

export interface FollowOptions {
  /** Opens a stream that resumes after `lastEventId` (0 = from the start). */
  readonly open: (lastEventId: number, signal: AbortSignal) => Promise<Response>;
  readonly lastEventId: number;
  readonly onEvent: (event: SessionEvent) => void;
  readonly onStatus?: (status: StreamStatus) => void;
  readonly signal: AbortSignal;
  /** Delays before successive reconnects, in ms; the last one repeats. */
  readonly retryDelaysMs?: readonly number[];
  /** Gives up after this many consecutive failed connections (default: never). */
  readonly maxAttempts?: number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A connection silent for this long is treated as cut (default 45 s; heartbeats come every 15 s). */
  readonly stallMs?: number;
}

export type FollowOutcome = "done" | "ended";

const DEFAULT_DELAYS = [250, 500, 1000, 2000, 4000] as const;

export async function followSessionStream(options: FollowOptions, first?: Response): Promise<FollowOutcome> {
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  const sleep = options.sleep ?? abortableSleep;
  let lastId = options.lastEventId;
  let failures = 0;
  let pending = first;
  for (;;) {
    options.onStatus?.(failures === 0 ? "connecting" : "reconnecting");
    try {
      const response = pending ?? (await options.open(lastId, options.signal));
      pending = undefined;
      await ensureOk(response);
      options.onStatus?.("live");
      return await readUntilDone(response, lastId, options.stallMs ?? 45_000, (event) => {
        lastId = event.id;
        failures = 0;
        options.onEvent(event);
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
    }
    failures += 1;
    if (options.maxAttempts !== undefined && failures >= options.maxAttempts) {
      throw new ApiError(0, "Lost the connection to the server and could not get it back.");
    }
    options.onStatus?.("reconnecting");
    await sleep(delays[Math.min(failures - 1, delays.length - 1)] ?? 1000, options.signal);
  }
}

async function readUntilDone(
  response: Response,
  afterId: number,
  stallMs: number,
  deliver: (event: SessionEvent) => void,
): Promise<FollowOutcome> {
  if (!response.body) return "ended";
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseFrameParser();
  let lastId = afterId;
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, stallMs);
      if (done) return "ended";
      for (const frame of parser.push(value)) {
        const event = eventFromFrame(frame);
        if (!event || event.id <= lastId) continue;
        lastId = event.id;
        deliver(event);
        if (event.type === "done") return "done";
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

class StalledError extends Error {}

async function readWithin<T>(reader: ReadableStreamDefaultReader<T>, ms: number): Promise<ReadableStreamReadResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StalledError("stream stalled")), ms);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
