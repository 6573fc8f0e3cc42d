import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { EventOf, EventType, SessionEvent } from "../../api/events";
import { closingError, delta, make, RECORDED_EVENTS, recordedOf, sseText } from "../../test/sessionEvents";
import { useAgentStream } from "../useAgentStream";

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function sse(events: readonly SessionEvent[]): Response {
  return new Response(sseText(events), { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

interface FakeServer {
  log: SessionEvent[];
  stream: SessionEvent[];
  requests: { url: string; method: string; lastEventId: string | null; body: string | null }[];
  onPost?: (url: string) => Response;
  /** Answers the stream itself instead of replaying `stream`. */
  onStream?: (after: number) => Response;
}

function installFetch(server: FakeServer) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(new URL(String(input), "http://forge.test")), init);
      const url = new URL(request.url, "http://forge.test");
      const body = request.method === "POST" ? await request.clone().text() : null;
      server.requests.push({ url: url.pathname, method: request.method, lastEventId: request.headers.get("Last-Event-ID"), body });
      if (url.pathname.endsWith("/events")) {
        const after = Number(url.searchParams.get("after") ?? 0);
        const events = server.log.filter((e) => e.id > after);
        return json({ events, next_after: events.at(-1)?.id ?? after, has_more: false });
      }
      if (url.pathname.endsWith("/run") && request.method === "POST") return json({ started: true, session: {} });
      if (url.pathname.endsWith("/stream")) {
        const after = Number(request.headers.get("Last-Event-ID") ?? 0);
        if (server.onStream) return server.onStream(after);
        return sse(server.stream.filter((e) => e.id > after));
      }
      if (request.method === "POST" && server.onPost) return server.onPost(url.pathname);
      return json({ detail: "not found" }, 404);
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

const byType = (events: readonly SessionEvent[]) => events.map((e) => e.type);

/** A recorded event of `type`, renumbered. */
function again<T extends EventType>(type: T, id: number): EventOf<T> {
  return { ...recordedOf(type), id };
}

const SAGA_FINDING: EventOf<"saga_finding">["data"] = {
  id: "CP-4-r0-score_compression",
  checkpoint: "CP-4",
  round: 0,
  kind: "score_compression",
  layer: 1,
  severity: "warning",
  statistic: 0.46,
  threshold: 0.8,
  p_value: null,
  hypothesis_ids: ["h1", "h2"],
  dimensions: [],
  message: "The scores spread by only 0.46.",
  suggested_constraint: "",
};
const SAGA_DIRECTIVE: EventOf<"saga_directive">["data"] = {
  id: "CP-4-r0-score_compression:ADJUST_SEARCH_PARAMS",
  kind: "ADJUST_SEARCH_PARAMS",
  finding_id: "CP-4-r0-score_compression",
  message: "SEARCH pushes to the edges.",
  weights: {},
  quota_changes: { oppose: 1 },
  hypothesis_ids: [],
  constraint: "",
  challenge: "",
};
const SAGA_CHECKPOINT: EventOf<"saga_checkpoint">["data"] = {
  checkpoint: "CP-4",
  round: 0,
  phase: "explore",
  summary: "CP-4: 1 finding(s).",
  passed: false,
  finding_ids: ["CP-4-r0-score_compression"],
  directive_ids: ["CP-4-r0-score_compression:ADJUST_SEARCH_PARAMS"],
  fast_events: ["BISO_COMPLETED"],
};

/**
 * One event of every type the API documents, in an order a session could produce them. Typed as a
 * record over EventType: a type the backend adds fails the type check until this test covers it.
 */
function oneOfEachType(): SessionEvent[] {
  const every: { [T in EventType]: EventOf<T> } = {
    phase_change: again("phase_change", 1),
    context_usage: again("context_usage", 2),
    agent_text: again("agent_text", 3),
    tool_call: again("tool_call", 4),
    tool_result: again("tool_result", 5),
    tool_error: make("tool_error", 6, { tool: "synthesize", error_code: "ANTITHESIS_MISSING", message: "Write the antithesis first." }),
    heartbeat: make("heartbeat", 7, {}),
    review_decompose: again("review_decompose", 8),
    user_input: make("user_input", 9, { type: "decompose_review", summary: "selected 1 reframing(s)" }),
    review_explore: again("review_explore", 10),
    review_claims: again("review_claims", 11),
    review_verdicts: again("review_verdicts", 12),
    review_build: again("review_build", 13),
    error: make("error", 14, { code: "MODEL_ERROR", message: "The model is unreachable.", recoverable: true, severity: "error" }),
    knowledge_document: again("knowledge_document", 15),
    engine_stage: make("engine_stage", 16, { stage: "biso", summary: "BISO over 18 source domains.", counts: { domains: 18 } }),
    saga_finding: make("saga_finding", 17, SAGA_FINDING),
    saga_directive: make("saga_directive", 18, SAGA_DIRECTIVE),
    saga_checkpoint: make("saga_checkpoint", 19, SAGA_CHECKPOINT),
    verify_injection_detected: make("verify_injection_detected", 20, {
      claim_id: "c1",
      claim_index: 0,
      findings: [{ source: "document:doc://1", pattern: "ignore_instructions", excerpt: "ignore all previous instructions" }],
    }),
    research_warning: make("research_warning", 21, { provider: "brave", message: "Brave answered HTTP 503; the local corpus answered." }),
    done: make("done", 22, { error: false, awaiting_input: false }),
  };
  return Object.values(every).sort((a, b) => a.id - b.id);
}

describe("useAgentStream", () => {
  test("replays the log, then follows the stream from the last id and dispatches every event type", async () => {
    const all = RECORDED_EVENTS.slice(0, 40);
    const cut = 12;
    const server: FakeServer = { log: all.slice(0, cut), stream: all, requests: [] };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect([result.current.connection, result.current.streamError]).toEqual(["idle", null]));
    const streamCall = server.requests.find((r) => r.url.endsWith("/stream"));
    expect(streamCall?.lastEventId).toBe(String(all[cut - 1]!.id));
    // The run is started by a POST (never by the GET): /run comes right before the stream.
    const opened = server.requests.filter((r) => !r.url.endsWith("/events")).map((r) => `${r.method} ${r.url}`);
    expect(opened).toEqual(["POST /api/v1/sessions/s1/run", "GET /api/v1/sessions/s1/stream"]);
    const t = result.current.timeline;
    const firstDone = all.findIndex((e) => e.type === "done");
    expect(t.lastEventId).toBe(all[firstDone]!.id);
    expect(t.pendingReview?.type).toBe("review_decompose");
    expect(t.turn).toBe("awaiting_input");
    expect(t.usage).not.toBeNull();
    expect(new Set(t.activity.map((a) => a.kind))).toEqual(new Set(["phase", "tool_call", "tool_result", "text", "review"]));
  });

  test("dispatches one event of every type from the live stream to the view", async () => {
    const events = oneOfEachType();
    const server: FakeServer = { log: [], stream: events, requests: [] };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect(result.current.timeline.lastEventId).toBe(22));
    const t = result.current.timeline;
    expect(t.eventCount).toBe(21); // a heartbeat only proves the connection is alive: not counted, not shown
    expect(t.phase).toBe(recordedOf("phase_change").data.phase);
    expect(t.usage).toEqual(recordedOf("context_usage").data);
    expect(t.activity.map((a) => a.kind)).toEqual(["phase", "text", "tool_call", "tool_result", "tool_error", "review", "user_input", "review", "review", "review", "review", "error", "engine_stage", "checkpoint", "warning", "warning"]);
    expect(t.checkpoints.map((c) => c.checkpoint)).toEqual(["CP-4"]);
    expect(t.supervisorEvents).toBe(3);
    expect(t.lastReviews.review_build?.id).toBe(13);
    expect(Object.keys(t.claimsById).length).toBeGreaterThan(0);
    expect(t.lastError).toEqual({ code: "MODEL_ERROR", message: "The model is unreachable.", recoverable: true });
    expect(t.document).toBe(recordedOf("knowledge_document").data.markdown);
    expect(t.turn).toBe("finished");
  });

  test("does not open the stream when the session waits for a review", async () => {
    const upToReview = RECORDED_EVENTS.slice(0, RECORDED_EVENTS.findIndex((e) => e.type === "done") + 1);
    const server: FakeServer = { log: upToReview, stream: upToReview, requests: [] };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: (t) => t.turn !== "awaiting_input" }), { wrapper });
    await waitFor(() => expect([result.current.connection, result.current.streamError]).toEqual(["idle", null]));
    expect(server.requests.some((r) => r.url.endsWith("/stream"))).toBe(false);
    expect(result.current.timeline.pendingReview?.type).toBe("review_decompose");
  });

  test("a refused review rejects with the API's message and changes nothing", async () => {
    const upToReview = RECORDED_EVENTS.slice(0, RECORDED_EVENTS.findIndex((e) => e.type === "done") + 1);
    const server: FakeServer = {
      log: upToReview,
      stream: upToReview,
      requests: [],
      onPost: () => json({ detail: "decompose_review needs at least one reframing: select one of indices 0..3 or add your own." }, 422),
    };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => false }), { wrapper });
    await waitFor(() => expect([result.current.connection, result.current.streamError]).toEqual(["idle", null]));
    const before = result.current.timeline;
    await expect(result.current.submitReview({ type: "decompose_review" })).rejects.toThrow(/at least one reframing/);
    expect(result.current.timeline).toBe(before);
  });

  test("an accepted review streams on from its response", async () => {
    const firstDone = RECORDED_EVENTS.findIndex((e) => e.type === "done");
    const upToReview = RECORDED_EVENTS.slice(0, firstDone + 1);
    const next = RECORDED_EVENTS.slice(firstDone + 1, RECORDED_EVENTS.findIndex((e, i) => i > firstDone && e.type === "done") + 1);
    const server: FakeServer = { log: upToReview, stream: [], requests: [], onPost: () => sse(next) };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => false }), { wrapper });
    await waitFor(() => expect([result.current.connection, result.current.streamError]).toEqual(["idle", null]));
    await act(() => result.current.submitReview({ type: "decompose_review", selected_reframings: [0] }));
    await waitFor(() => expect(result.current.timeline.pendingReview?.type).toBe("review_explore"));
    const post = server.requests.find((r) => r.method === "POST");
    expect(post?.url).toBe("/api/v1/sessions/s1/user-input");
    expect(JSON.parse(post!.body!)).toEqual({ type: "decompose_review", selected_reframings: [0] });
    expect(byType(next)).toContain("user_input");
    expect(result.current.timeline.activity.some((a) => a.kind === "user_input")).toBe(true);
  });

  test("the autopilot posts its settings and streams on", async () => {
    const firstDone = RECORDED_EVENTS.findIndex((e) => e.type === "done");
    const server: FakeServer = {
      log: RECORDED_EVENTS.slice(0, firstDone + 1),
      stream: [],
      requests: [],
      onPost: () => sse([make("user_input", 9999, { type: "decompose_review", summary: "autopilot: selected 4 reframing(s)" }), make("done", 10000, { error: false, awaiting_input: true })]),
    };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => false }), { wrapper });
    await waitFor(() => expect([result.current.connection, result.current.streamError]).toEqual(["idle", null]));
    await act(() => result.current.runAutopilot({ accept_threshold: 0.6, rounds: 1 }));
    await waitFor(() => expect(result.current.timeline.lastEventId).toBe(10000));
    const post = server.requests.find((r) => r.method === "POST");
    expect(post?.url).toBe("/api/v1/sessions/s1/autopilot");
    expect(JSON.parse(post!.body!)).toEqual({ accept_threshold: 0.6, rounds: 1 });
    expect(recordedOf("review_decompose").type).toBe("review_decompose");
  });

  test("shows the reply being written as a draft, then the stored reply in its place", async () => {
    const encoder = new TextEncoder();
    let push: (text: string) => void = () => undefined;
    let end: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(encoder.encode(text));
        end = () => controller.close();
      },
    });
    const server: FakeServer = {
      log: [make("phase_change", 1, { phase: "decompose", round: 0, resumed: false })],
      stream: [],
      requests: [],
      onStream: () => new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect(result.current.connection).toBe("live"));
    act(() => push(sseText([delta("The fundamentals "), delta("are")])));
    await waitFor(() => expect(result.current.timeline.draft).toBe("The fundamentals are"));
    expect(result.current.timeline.lastEventId).toBe(1);
    act(() => {
      push(sseText([make("agent_text", 2, "The fundamentals are clear."), make("done", 3, { error: false, awaiting_input: true })]));
      end();
    });
    await waitFor(() => expect(result.current.connection).toBe("idle"));
    const t = result.current.timeline;
    expect(t.draft).toBeNull();
    expect(t.activity.filter((a) => a.kind === "text")).toEqual([{ kind: "text", id: 2, text: "The fundamentals are clear." }]);
  });

  test("a stream the server ends with SESSION_DELETED says the session was deleted", async () => {
    const server: FakeServer = {
      log: [make("phase_change", 1, { phase: "decompose", round: 0, resumed: false })],
      stream: [],
      requests: [],
      onStream: () => new Response(closingError("SESSION_DELETED", "The session was deleted."), { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect(result.current.connection).toBe("deleted"));
    expect(result.current.sessionDeleted).toBe(true);
    expect(server.requests.filter((r) => r.url.endsWith("/stream"))).toHaveLength(1);
  });

  test("a draft left when the stream ends without its reply is dropped", async () => {
    const server: FakeServer = {
      log: [make("phase_change", 1, { phase: "decompose", round: 0, resumed: false })],
      stream: [],
      requests: [],
      onStream: () => new Response(sseText([delta("Half a thought")]), { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    };
    installFetch(server);
    const { result } = renderHook(() => useAgentStream("s1", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect(result.current.connection).toBe("idle"));
    expect(result.current.timeline.draft).toBeNull();
    expect(result.current.timeline.activity.map((a) => a.kind)).toEqual(["phase"]);
  });

  test("an event log the server cannot give yet is an outage: reconnecting, then the log once it is back", async () => {
    const all = RECORDED_EVENTS.slice(0, 8);
    const server: FakeServer = { log: all, stream: [], requests: [] };
    let down = 2;
    installFetch(server);
    const serve = vi.mocked(globalThis.fetch).getMockImplementation()!;
    const states: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (down > 0) {
          down -= 1;
          throw new TypeError("Failed to fetch");
        }
        return serve(input, init);
      }),
    );
    const { result } = renderHook(
      () => {
        const stream = useAgentStream("s1", { followOnLoad: () => false });
        states.push(stream.connection);
        return stream;
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.connection).toBe("idle"), { timeout: 3000 });
    expect(states).toContain("reconnecting");
    expect(states).not.toContain("failed");
    expect(result.current.timeline.lastEventId).toBe(all.at(-1)!.id);
  });

  test("a stream cut while the server is down keeps what was shown and resumes after the last id", async () => {
    const all = RECORDED_EVENTS.slice(0, RECORDED_EVENTS.findIndex((e) => e.type === "done") + 1); // one turn
    let opened = 0;
    const server: FakeServer = {
      log: all.slice(0, 5),
      stream: [],
      requests: [],
      onStream: (after) => {
        opened += 1;
        if (opened === 1) {
          // Some events, then the connection breaks mid-body.
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(sseText(all.slice(5, 12))));
              setTimeout(() => controller.error(new TypeError("network error")), 20);
            },
          });
          return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
        }
        if (opened === 2) throw new TypeError("Failed to fetch"); // still down
        return sse(all.filter((e) => e.id > after));
      },
    };
    installFetch(server);
    const states: string[] = [];
    const { result } = renderHook(
      () => {
        const stream = useAgentStream("s1", { followOnLoad: () => true });
        states.push(stream.connection);
        return stream;
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.connection).toBe("idle"), { timeout: 3000 });
    expect(states).toContain("reconnecting");
    const resumes = server.requests.filter((r) => r.url.endsWith("/stream")).map((r) => r.lastEventId);
    expect(resumes).toEqual([String(all[4]!.id), String(all[11]!.id), String(all[11]!.id)]);
    expect(result.current.timeline.lastEventId).toBe(all.at(-1)!.id);
    const ids = result.current.timeline.activity.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("only a 404 from the server means the session is not found", async () => {
    const server: FakeServer = { log: [], stream: [], requests: [] };
    installFetch(server);
    const serve = vi.mocked(globalThis.fetch).getMockImplementation()!;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
        String(input instanceof Request ? input.url : input).includes("/events") ? json({ detail: "Session not found" }, 404) : serve(input, init),
      ),
    );
    const { result } = renderHook(() => useAgentStream("gone", { followOnLoad: () => true }), { wrapper });
    await waitFor(() => expect(result.current.connection).toBe("not-found"));
  });
});
