import { describe, expect, test, vi } from "vitest";
import { closingError, delta, make, sseText } from "../../test/sessionEvents";
import type { LiveEvent, SessionEvent } from "../events";
import { followSessionStream, StreamClosedError } from "../followSessionStream";

function sseResponse(text: string, { breakAfter = false } = {}): Response {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode(text));
      } else if (breakAfter) controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

const noSleep = async () => undefined;

describe("followSessionStream", () => {
  test("reconnects after a cut with Last-Event-ID and delivers each event once", async () => {
    const first = [make("phase_change", 1, { phase: "decompose", round: 0, resumed: false }), make("tool_call", 2, { tool: "research", input_preview: "{}" })];
    const replay = [first[1]!, make("tool_result", 3, { tool: "research", summary: "5" }), make("done", 4, { error: false, awaiting_input: true })];
    const opened: number[] = [];
    const open = vi.fn(async (after: number) => {
      opened.push(after);
      return opened.length === 1 ? sseResponse(sseText(first), { breakAfter: true }) : sseResponse(sseText(replay));
    });
    const seen: SessionEvent[] = [];
    const outcome = await followSessionStream({ open, lastEventId: 0, onEvent: (e) => seen.push(e), signal: new AbortController().signal, sleep: noSleep });
    expect(outcome).toBe("done");
    expect(opened).toEqual([0, 2]);
    expect(seen.map((e) => e.id)).toEqual([1, 2, 3, 4]);
  });

  test("a clean end without done means nothing runs: the follow ends", async () => {
    const open = vi.fn(async () => sseResponse(""));
    const outcome = await followSessionStream({ open, lastEventId: 9, onEvent: () => undefined, signal: new AbortController().signal, sleep: noSleep });
    expect(outcome).toBe("ended");
    expect(open).toHaveBeenCalledTimes(1);
  });

  test("a 4xx answer is final and carries the API's message", async () => {
    const open = vi.fn(async () => new Response(JSON.stringify({ detail: "Session abc not found." }), { status: 404 }));
    await expect(
      followSessionStream({ open, lastEventId: 0, onEvent: () => undefined, signal: new AbortController().signal, sleep: noSleep }),
    ).rejects.toThrow("Session abc not found.");
    expect(open).toHaveBeenCalledTimes(1);
  });

  test("5xx and network errors are retried with growing delays", async () => {
    const delays: number[] = [];
    let calls = 0;
    const open = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError("Failed to fetch");
      if (calls === 2) return new Response("{}", { status: 503 });
      return sseResponse(sseText([make("done", 1, { error: false, awaiting_input: true })]));
    });
    const outcome = await followSessionStream({
      open,
      lastEventId: 0,
      onEvent: () => undefined,
      signal: new AbortController().signal,
      retryDelay: (attempt) => 10 * 2 ** (attempt - 1),
      sleep: async (ms) => void delays.push(ms),
    });
    expect(outcome).toBe("done");
    expect(delays).toEqual([10, 20]);
  });

  test("gives up after maxAttempts consecutive failures", async () => {
    const open = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(
      followSessionStream({ open, lastEventId: 0, onEvent: () => undefined, signal: new AbortController().signal, sleep: noSleep, maxAttempts: 3 }),
    ).rejects.toThrow(/could not get it back/);
    expect(open).toHaveBeenCalledTimes(3);
  });

  test("a silent connection past the stall limit is treated as cut", async () => {
    let calls = 0;
    const open = vi.fn(async () => {
      calls += 1;
      if (calls === 1) return new Response(new ReadableStream<Uint8Array>({ start() {} }), { status: 200 });
      return sseResponse(sseText([make("done", 1, { error: false, awaiting_input: true })]));
    });
    const outcome = await followSessionStream({ open, lastEventId: 0, onEvent: () => undefined, signal: new AbortController().signal, sleep: noSleep, stallMs: 20 });
    expect(outcome).toBe("done");
    expect(calls).toBe(2);
  });

  test("the browser's word that the network is gone cuts a silent connection at once", async () => {
    let calls = 0;
    const open = vi.fn(async () => {
      calls += 1;
      if (calls === 1) return new Response(new ReadableStream<Uint8Array>({ start() {} }), { status: 200 });
      return sseResponse(sseText([make("done", 1, { error: false, awaiting_input: true })]));
    });
    const statuses: string[] = [];
    let fire: (() => void) | undefined;
    const outcome = followSessionStream({
      open,
      lastEventId: 0,
      onEvent: () => undefined,
      onStatus: (status) => statuses.push(status),
      signal: new AbortController().signal,
      sleep: noSleep,
      stallMs: 60_000, // far away: only the network news can cut it in time
      networkLost: (onLost) => {
        fire = onLost;
        return () => (fire = undefined);
      },
    });
    await vi.waitFor(() => expect(fire).toBeDefined());
    fire!();
    await expect(outcome).resolves.toBe("done");
    expect(statuses).toEqual(["connecting", "live", "reconnecting", "live"]);
  });

  test("frames without an id go to onLive and never move the resume cursor", async () => {
    const first = sseText([make("tool_call", 1, { tool: "research", input_preview: "{}" }), delta("The answer "), delta("is")]);
    const replay = sseText([make("agent_text", 2, "The answer is 42."), make("done", 3, { error: false, awaiting_input: true })]);
    const opened: number[] = [];
    const open = vi.fn(async (after: number) => {
      opened.push(after);
      return opened.length === 1 ? sseResponse(first, { breakAfter: true }) : sseResponse(replay);
    });
    const seen: (SessionEvent | LiveEvent)[] = [];
    const log: string[] = [];
    const outcome = await followSessionStream({
      open,
      lastEventId: 0,
      onEvent: (e) => seen.push(e),
      onLive: (e) => seen.push(e),
      onConnected: () => log.push("connected"),
      signal: new AbortController().signal,
      sleep: noSleep,
    });
    expect(outcome).toBe("done");
    expect(opened).toEqual([0, 1]); // resumed after the last stored id, not after the live frames
    expect(seen.map((e) => ("id" in e ? e.id : e.type))).toEqual([1, "agent_text_delta", "agent_text_delta", 2, 3]);
    expect(log).toEqual(["connected", "connected"]); // each accepted connection voids the draft
  });

  test.each(["SERVER_SHUTDOWN", "EVENTS_UNAVAILABLE"] as const)("a closing %s reconnects with backoff after the last id", async (code) => {
    const opened: number[] = [];
    const statuses: [string, string | undefined][] = [];
    const delays: number[] = [];
    const open = vi.fn(async (after: number) => {
      opened.push(after);
      if (opened.length === 1) return sseResponse(sseText([make("tool_call", 4, { tool: "research", input_preview: "{}" })]) + closingError(code, "The server is shutting down."));
      if (opened.length === 2) throw new TypeError("Failed to fetch"); // still down
      return sseResponse(sseText([make("done", 5, { error: false, awaiting_input: true })]));
    });
    const outcome = await followSessionStream({
      open,
      lastEventId: 3,
      onEvent: () => undefined,
      onStatus: (status, reason) => statuses.push([status, reason]),
      signal: new AbortController().signal,
      retryDelay: (attempt) => 10 * 2 ** (attempt - 1),
      sleep: async (ms) => void delays.push(ms),
    });
    expect(outcome).toBe("done");
    expect(opened).toEqual([3, 4, 4]);
    expect(delays).toEqual([10, 20]);
    expect(statuses).toContainEqual(["reconnecting", "The server is shutting down."]);
  });

  test("a closing SESSION_DELETED is final and says the session was deleted", async () => {
    const open = vi.fn(async () => sseResponse(closingError("SESSION_DELETED", "The session was deleted.")));
    const follow = followSessionStream({ open, lastEventId: 2, onEvent: () => undefined, signal: new AbortController().signal, sleep: noSleep });
    await expect(follow).rejects.toBeInstanceOf(StreamClosedError);
    await expect(follow).rejects.toMatchObject({ code: "SESSION_DELETED", message: "This session was deleted." });
    expect(open).toHaveBeenCalledTimes(1);
  });
});
