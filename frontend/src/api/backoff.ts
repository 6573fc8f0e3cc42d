/**
 * How long to wait before the next attempt to reach the server (a stream, the event log, the
 * session): exponential growth with jitter, capped.
 *
 * Design: "equal jitter" — half of each delay is fixed, half random — so many tabs that lost the
 * same server do not all come back in the same millisecond, yet no delay is ever near zero. The
 * first retry comes quickly (a blip costs a quarter of a second); the cap keeps a long outage
 * from making the page wait long once the server is back.
 */

export interface BackoffPolicy {
  /** Delay before the first retry, before jitter (ms). */
  readonly initialMs: number;
  /** No delay exceeds this (ms). */
  readonly maxMs: number;
  readonly factor: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 5_000, factor: 2 };

/** The delay before retry number `attempt` (1 = the first retry). `random` returns [0, 1). */
export function retryDelayMs(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const step = Math.max(1, Math.floor(attempt));
  const ceiling = Math.min(policy.maxMs, policy.initialMs * policy.factor ** (step - 1));
  const half = ceiling / 2;
  return Math.round(half + half * Math.min(Math.max(random(), 0), 1));
}
