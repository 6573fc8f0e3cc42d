/**
 * Follows a session's SSE stream until the agent's turn ends, reconnecting by itself.
 *
 * Invariants:
 *   - Every (re)connection sends `Last-Event-ID` = the last STORED event id delivered, so the
 *     server replays exactly what was missed; ids at or below it are never delivered twice. Frames
 *     without an id (live text, the server's closing `error`) never move that cursor.
 *   - Live events go to `onLive` as they come; each accepted (re)connection calls `onConnected`
 *     first, because anything live from an earlier connection (a draft) is void after a cut.
 *   - A `done` event ends the follow ("done"). A stream the server closes cleanly without one
 *     means nothing runs (the session is paused or finished): the follow ends ("ended").
 *   - A stream that breaks (network error, truncated body) or stays silent past the stall limit
 *     — the server sends heartbeats — is a cut: reconnect after a growing delay (`backoff.ts`),
 *     which resets once events flow again. The status turns "reconnecting" at the cut, before
 *     the first delay, so the page says so at once. The browser's word that the network is gone
 *     (`networkLost`) is a cut too, without waiting for the stall limit. So is a closing `error` the server sends when it shuts down or
 *     cannot read the events (SERVER_SHUTDOWN, EVENTS_UNAVAILABLE: recoverable).
 *   - A 4xx answer is final (the session cannot be streamed: deleted, cancelled...); it is thrown
 *     with the API's message. So is a closing SESSION_DELETED (or any closing error that is not
 *     recoverable), thrown as a StreamClosedError. Network errors and 5xx are retried.
 */
import { retryDelayMs } from "./backoff";
import { ApiError, ensureOk } from "./client";
import { itemFromFrame, type LiveEvent, type SessionEvent, type StreamClosed } from "./events";
import { SseFrameParser } from "./parseSseFrames";
import { i18n } from "../i18n/i18n";

export type StreamStatus = "connecting" | "live" | "reconnecting";

export interface FollowOptions {
  /** Opens a stream that resumes after `lastEventId` (0 = from the start). */
  readonly open: (lastEventId: number, signal: AbortSignal) => Promise<Response>;
  readonly lastEventId: number;
  /** Stored events, each once, in id order. */
  readonly onEvent: (event: SessionEvent) => void;
  /** Live events (no id): text being written, a discarded draft. */
  readonly onLive?: (event: LiveEvent) => void;
  /** A (re)connection was accepted; whatever was live before it is void. */
  readonly onConnected?: () => void;
  /** `reason` says why a reconnect is needed when the server said so (its closing message). */
  readonly onStatus?: (status: StreamStatus, reason?: string) => void;
  readonly signal: AbortSignal;
  /** The delay before reconnect number `attempt` (1 = first), in ms (default: capped exponential with jitter). */
  readonly retryDelay?: (attempt: number) => number;
  /** Gives up after this many consecutive failed connections (default: never). */
  readonly maxAttempts?: number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A connection silent for this long is treated as cut (default 45 s; heartbeats come every 15 s). */
  readonly stallMs?: number;
  /**
   * Subscribes to news that the network is gone (the browser's `offline` event); returns an
   * unsubscribe. The open connection is then treated as cut at once instead of after the stall
   * limit, so the page says "reconnecting" within a moment of losing the network.
   */
  readonly networkLost?: (onLost: () => void) => () => void;
}

export type FollowOutcome = "done" | "ended";

/** The server ended the stream for good (SESSION_DELETED, or a closing error that is not recoverable). */
export class StreamClosedError extends Error {
  readonly code: string;

  constructor(closed: StreamClosed) {
    super(closed.code === "SESSION_DELETED" ? i18n.t("apiError.sessionDeleted") : closed.message);
    this.name = "StreamClosedError";
    this.code = closed.code;
  }
}

/** Closing codes after which reconnecting cannot help, even though the server marks them recoverable. */
const FINAL_CLOSE_CODES: ReadonlySet<string> = new Set(["SESSION_DELETED"]);

/** The server closed the stream but the session can be followed again: retry like a cut. */
class RetryableClose extends Error {}

export async function followSessionStream(options: FollowOptions, first?: Response): Promise<FollowOutcome> {
  const retryDelay = options.retryDelay ?? retryDelayMs;
  const sleep = options.sleep ?? abortableSleep;
  let lastId = options.lastEventId;
  let failures = 0;
  let pending = first;
  let reason: string | undefined;
  for (;;) {
    // After a failure "reconnecting" was said already, once, when the cut was seen.
    if (failures === 0) options.onStatus?.("connecting");
    reason = undefined;
    try {
      const response = pending ?? (await options.open(lastId, options.signal));
      pending = undefined;
      await ensureOk(response);
      options.onConnected?.();
      options.onStatus?.("live");
      return await readUntilDone(response, lastId, { stallMs: options.stallMs ?? 45_000, networkLost: options.networkLost }, {
        stored: (event) => {
          lastId = event.id;
          failures = 0;
          options.onEvent(event);
        },
        live: (event) => options.onLive?.(event),
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
      if (error instanceof StreamClosedError) throw error;
      if (error instanceof RetryableClose) reason = error.message;
    }
    failures += 1;
    if (options.maxAttempts !== undefined && failures >= options.maxAttempts) {
      throw new ApiError(0, i18n.t("apiError.connectionLost"));
    }
    options.onStatus?.("reconnecting", reason);
    await sleep(retryDelay(failures), options.signal);
  }
}

interface Deliver {
  readonly stored: (event: SessionEvent) => void;
  readonly live: (event: LiveEvent) => void;
}

interface CutDetection {
  readonly stallMs: number;
  readonly networkLost: FollowOptions["networkLost"];
}

async function readUntilDone(response: Response, afterId: number, cuts: CutDetection, deliver: Deliver): Promise<FollowOutcome> {
  if (!response.body) return "ended";
  let lost: (() => void) | undefined;
  const networkGone = new Promise<never>((_, reject) => {
    lost = () => reject(new StalledError("the network is gone"));
  });
  networkGone.catch(() => undefined); // observed by the race below; never an unhandled rejection
  const unsubscribe = cuts.networkLost?.(() => lost?.()) ?? (() => undefined);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseFrameParser();
  let lastId = afterId;
  try {
    for (;;) {
      const { value, done } = await Promise.race([readWithin(reader, cuts.stallMs), networkGone]);
      if (done) return "ended";
      for (const frame of parser.push(value)) {
        const item = itemFromFrame(frame);
        if (!item) continue;
        if (item.kind === "live") {
          deliver.live(item.event);
          continue;
        }
        if (item.kind === "closed") {
          if (item.closed.recoverable && !FINAL_CLOSE_CODES.has(item.closed.code)) throw new RetryableClose(item.closed.message);
          throw new StreamClosedError(item.closed);
        }
        const event = item.event;
        if (event.id <= lastId) continue;
        lastId = event.id;
        deliver.stored(event);
        if (event.type === "done") return "done";
      }
    }
  } finally {
    unsubscribe();
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
