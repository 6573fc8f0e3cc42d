import { describe, expect, test } from "vitest";
import { INITIAL_CONNECTION, isStreaming, nextConnection, type Connection, type ConnectionSignal } from "../connectionState";

const run = (signals: readonly ConnectionSignal[], from: Connection = INITIAL_CONNECTION) => signals.reduce(nextConnection, from);

describe("nextConnection", () => {
  test("a cut turns a live stream into reconnecting, remembering when the outage began", () => {
    expect(run([{ type: "opening" }, { type: "opened" }, { type: "cut", at: 1000 }])).toEqual({ kind: "reconnecting", attempt: 1, reason: null, since: 1000 });
  });

  test("every failed attempt counts, and the outage keeps its start time and the server's reason", () => {
    const state = run([{ type: "opened" }, { type: "cut", at: 1000, reason: "The server is shutting down." }, { type: "opening" }, { type: "cut", at: 1500 }, { type: "opening" }, { type: "cut", at: 2500 }]);
    expect(state).toEqual({ kind: "reconnecting", attempt: 3, reason: "The server is shutting down.", since: 1000 });
  });

  test("a new attempt while reconnecting stays reconnecting instead of flickering to connecting", () => {
    expect(run([{ type: "cut", at: 0 }, { type: "opening" }]).kind).toBe("reconnecting");
    expect(run([{ type: "settled" }, { type: "opening" }]).kind).toBe("connecting");
  });

  test("an accepted stream after an outage is live again", () => {
    expect(run([{ type: "opened" }, { type: "cut", at: 0 }, { type: "opening" }, { type: "opened" }])).toEqual({ kind: "live" });
  });

  test("a log that could not be read while loading is an outage, not a failure", () => {
    expect(run([{ type: "load" }, { type: "cut", at: 5 }]).kind).toBe("reconnecting");
    expect(run([{ type: "load" }, { type: "cut", at: 5 }, { type: "settled" }])).toEqual({ kind: "idle" });
  });

  test("only a 404 means not found; another refusal keeps the server's message", () => {
    expect(run([{ type: "refused", status: 404, message: "Session not found" }])).toEqual({ kind: "not-found" });
    expect(run([{ type: "refused", status: 409, message: "The session was cancelled." }])).toEqual({ kind: "failed", message: "The session was cancelled." });
  });

  test("a session that is gone stays gone whatever the network does, until a fresh load", () => {
    for (const final of [{ type: "deleted" }, { type: "refused", status: 404, message: "" }] as const) {
      const gone = run([{ type: "opened" }, final]);
      expect(run([{ type: "cut", at: 1 }, { type: "opening" }, { type: "opened" }, { type: "settled" }], gone)).toEqual(gone);
      expect(run([{ type: "load" }], gone)).toEqual({ kind: "loading" });
    }
  });

  test("a failure that is not final can be retried", () => {
    expect(run([{ type: "refused", status: 409, message: "x" }, { type: "opening" }, { type: "opened" }])).toEqual({ kind: "live" });
  });
});

describe("isStreaming", () => {
  test("is true only while a stream is open or opening", () => {
    expect(isStreaming({ kind: "live" })).toBe(true);
    expect(isStreaming({ kind: "connecting" })).toBe(true);
    for (const kind of ["loading", "idle", "not-found", "deleted"] as const) expect(isStreaming({ kind })).toBe(false);
    expect(isStreaming({ kind: "reconnecting", attempt: 1, reason: null, since: 0 })).toBe(false);
  });
});
