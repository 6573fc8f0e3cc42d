import { describe, expect, test } from "vitest";
import { DEFAULT_BACKOFF, retryDelayMs } from "../backoff";

const lowest = () => 0;
const highest = () => 0.999999;

describe("retryDelayMs", () => {
  test("the first retry comes well within a second", () => {
    expect(retryDelayMs(1, DEFAULT_BACKOFF, highest)).toBeLessThanOrEqual(250);
    expect(retryDelayMs(1, DEFAULT_BACKOFF, lowest)).toBe(125);
  });

  test("grows with each failed attempt", () => {
    const delays = [1, 2, 3, 4].map((n) => retryDelayMs(n, DEFAULT_BACKOFF, lowest));
    expect(delays).toEqual([125, 250, 500, 1000]);
  });

  test("never exceeds the cap however long the outage lasts", () => {
    for (const attempt of [6, 10, 50, 1000]) expect(retryDelayMs(attempt, DEFAULT_BACKOFF, highest)).toBeLessThanOrEqual(DEFAULT_BACKOFF.maxMs);
    expect(retryDelayMs(1000, DEFAULT_BACKOFF, lowest)).toBe(DEFAULT_BACKOFF.maxMs / 2);
  });

  test("jitter spreads a delay over its upper half", () => {
    const policy = { initialMs: 1000, maxMs: 10_000, factor: 2 };
    expect(retryDelayMs(1, policy, lowest)).toBe(500);
    expect(retryDelayMs(1, policy, () => 0.5)).toBe(750);
    expect(retryDelayMs(1, policy, highest)).toBe(1000);
  });

  test("treats nonsense attempt numbers as the first retry", () => {
    expect(retryDelayMs(0, DEFAULT_BACKOFF, lowest)).toBe(125);
    expect(retryDelayMs(-3, DEFAULT_BACKOFF, lowest)).toBe(125);
  });
});
