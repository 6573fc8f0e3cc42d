import { describe, expect, test } from "vitest";
import { delta, discarded, make, recordedOf, RECORDED_EVENTS } from "../../test/sessionEvents";
import { applyEvent, applyEvents, applyLiveEvent, dropDraft, EMPTY_TIMELINE, type SessionTimeline } from "../sessionTimeline";
import type { LiveEvent } from "../../api/events";

const live = (t: SessionTimeline, ...events: LiveEvent[]) => events.reduce(applyLiveEvent, t);

describe("applyEvents over a whole recorded offline session", () => {
  const timeline = applyEvents(EMPTY_TIMELINE, RECORDED_EVENTS);

  test("ends crystallized with the document and every phase reached", () => {
    expect(timeline.document).toMatch(/^# /);
    expect(timeline.turn).toBe("finished");
    expect(timeline.phase).toBe("crystallize");
    expect(new Set(timeline.phasesReached)).toEqual(new Set(["decompose", "explore", "synthesize", "validate", "build", "crystallize"]));
    expect(timeline.pendingReview).toBeNull();
  });

  test("keeps every claim shown in a review, by id", () => {
    const claims = recordedOf("review_verdicts").data.claims;
    for (const claim of claims) expect(timeline.claimsById[claim.id]?.text).toBe(claim.text);
  });

  test("is idempotent: replaying the same events changes nothing", () => {
    expect(applyEvents(timeline, RECORDED_EVENTS)).toBe(timeline);
  });
});

describe("applyEvent dispatches each event type", () => {
  test("each stored agent_text is one whole reply: one block each", () => {
    const t = applyEvents(EMPTY_TIMELINE, [make("agent_text", 1, "First reply."), make("agent_text", 2, "Second reply.")]);
    expect(t.activity).toEqual([
      { kind: "text", id: 1, text: "First reply." },
      { kind: "text", id: 2, text: "Second reply." },
    ]);
    expect(t.turn).toBe("running");
  });

  test("tool_call, tool_result and tool_error become activity entries", () => {
    const t = applyEvents(EMPTY_TIMELINE, [
      make("tool_call", 1, { tool: "research", input_preview: "{}" }),
      make("tool_result", 2, { tool: "research", summary: "5 result(s)" }),
      make("tool_error", 3, { tool: "create_synthesis", error_code: "ANTITHESIS_MISSING", message: "find it first" }),
    ]);
    expect(t.activity.map((a) => a.kind)).toEqual(["tool_call", "tool_result", "tool_error"]);
    expect(t.activity[2]).toMatchObject({ code: "ANTITHESIS_MISSING", tool: "create_synthesis" });
  });

  test("a resumed phase_change is a note, not a new phase", () => {
    const started = applyEvents(EMPTY_TIMELINE, [
      make("phase_change", 1, { phase: "explore", round: 0, resumed: false }),
      make("tool_call", 2, { tool: "research", input_preview: "{}" }),
      make("error", 3, { code: "RUN_INCOMPLETE", message: "stopped", severity: "error", recoverable: true }),
      make("done", 4, { error: true, awaiting_input: false }),
    ]);
    expect(started.turn).toBe("failed");
    const t = applyEvent(started, make("phase_change", 5, { phase: "explore", round: 0, resumed: true }));
    expect(t.phasesReached).toEqual(["explore"]);
    expect(t.activity.filter((a) => a.kind === "phase")).toHaveLength(1);
    expect(t.activity.at(-1)).toEqual({ kind: "resumed", id: 5, phase: "explore", round: 0 });
    expect(t).toMatchObject({ phase: "explore", round: 0, turn: "running", lastError: null });
  });

  test("phase_change sets phase and round and clears the last error", () => {
    const failed = applyEvent(EMPTY_TIMELINE, make("error", 1, { code: "MODEL_ERROR", message: "down", severity: "error", recoverable: true }));
    const t = applyEvent(failed, make("phase_change", 2, { phase: "explore", round: 1, resumed: false }));
    expect(t).toMatchObject({ phase: "explore", round: 1, lastError: null, phasesReached: ["explore"] });
  });

  test("context_usage replaces the meter's reading", () => {
    const usage = recordedOf("context_usage");
    expect(applyEvent(EMPTY_TIMELINE, usage).usage).toEqual(usage.data);
  });

  test.each(["review_decompose", "review_explore", "review_claims", "review_verdicts", "review_build"] as const)(
    "%s becomes the pending review until the next user_input",
    (type) => {
      const review = { ...recordedOf(type), id: 10 };
      const waiting = applyEvents(EMPTY_TIMELINE, [review, make("done", 11, { error: false, awaiting_input: true })]);
      expect(waiting.pendingReview).toBe(review);
      expect(waiting.turn).toBe("awaiting_input");
      const answered = applyEvent(waiting, make("user_input", 12, { type: "decompose_review", summary: "selected 1 reframing(s)" }));
      expect(answered.pendingReview).toBeNull();
      expect(answered.lastReviews[type]).toBe(review);
    },
  );

  test("knowledge_document stores the markdown; done then marks the session finished", () => {
    const t = applyEvents(EMPTY_TIMELINE, [make("knowledge_document", 1, { markdown: "# Doc" }), make("done", 2, { error: false, awaiting_input: false })]);
    expect(t.document).toBe("# Doc");
    expect(t.turn).toBe("finished");
  });

  test("error is recorded and a done with error marks the turn failed", () => {
    const t = applyEvents(EMPTY_TIMELINE, [
      make("error", 1, { code: "MODEL_ERROR", message: "The model did not answer", severity: "error", recoverable: true }),
      make("done", 2, { error: true, awaiting_input: false }),
    ]);
    expect(t.lastError).toEqual({ code: "MODEL_ERROR", message: "The model did not answer", recoverable: true });
    expect(t.turn).toBe("failed");
  });

  test("heartbeat changes nothing visible", () => {
    const t = applyEvent(EMPTY_TIMELINE, make("heartbeat", 5, {} as never));
    expect(t.activity).toEqual([]);
    expect(t.eventCount).toBe(0);
  });

  test("an event at or below the last applied id is ignored (no duplicates after a reconnect)", () => {
    const once = applyEvents(EMPTY_TIMELINE, [make("tool_call", 1, { tool: "a", input_preview: "" }), make("tool_call", 2, { tool: "b", input_preview: "" })]);
    const again = applyEvents(once, [make("tool_call", 2, { tool: "b", input_preview: "" }), make("tool_call", 3, { tool: "c", input_preview: "" })]);
    expect(again.activity.map((a) => a.id)).toEqual([1, 2, 3]);
  });
});

describe("the live draft of the reply being written", () => {
  const base = applyEvents(EMPTY_TIMELINE, [make("phase_change", 1, { phase: "decompose", round: 0, resumed: false })]);

  test("grows from deltas without touching the log's cursor or the activity", () => {
    const t = live(base, delta("The fund"), delta("amentals are"), delta(" clear."));
    expect(t.draft).toBe("The fundamentals are clear.");
    expect(t.lastEventId).toBe(1);
    expect(t.eventCount).toBe(1);
    expect(t.activity).toBe(base.activity);
  });

  test("is replaced by the stored agent_text: the text is shown once", () => {
    const writing = live(base, delta("The fund"), delta("amentals"));
    const t = applyEvents(writing, [
      make("context_usage", 2, recordedOf("context_usage").data),
      make("agent_text", 3, "The fundamentals are clear."),
      make("tool_call", 4, { tool: "research", input_preview: "{}" }),
    ]);
    expect(t.draft).toBeNull();
    expect(t.activity.filter((a) => a.kind === "text")).toEqual([{ kind: "text", id: 3, text: "The fundamentals are clear." }]);
  });

  test("stays on screen while the step commits its usage and tool events, before its text", () => {
    const writing = live(base, delta("Searching"));
    const t = applyEvents(writing, [
      make("context_usage", 2, recordedOf("context_usage").data),
      make("tool_call", 3, { tool: "web_search", input_preview: "queues" }),
      make("tool_result", 4, { tool: "web_search", summary: "3 result(s)" }),
    ]);
    expect(t.draft).toBe("Searching");
  });

  test("is dropped by agent_text_discarded, and a new draft starts from nothing", () => {
    const t = live(base, delta("A first attempt"), discarded());
    expect(t.draft).toBeNull();
    expect(live(t, delta("Second")).draft).toBe("Second");
  });

  test("is dropped by a reconnect and by an event that ends the step without text", () => {
    const writing = live(base, delta("Half a"));
    expect(dropDraft(writing).draft).toBeNull();
    expect(dropDraft(base)).toBe(base);
    const failed = applyEvents(writing, [
      make("error", 2, { code: "MODEL_ERROR", message: "down", severity: "error", recoverable: true }),
      make("done", 3, { error: true, awaiting_input: false }),
    ]);
    expect(failed.draft).toBeNull();
  });

  test("a reload (the log alone) gives the same view as live deltas plus the stored reply", () => {
    const stored = [make("agent_text", 2, "Whole reply."), make("done", 3, { error: false, awaiting_input: true })];
    const viaLive = applyEvents(live(base, delta("Whole "), delta("reply.")), stored);
    const viaLog = applyEvents(base, stored);
    expect(viaLive).toEqual(viaLog);
  });
});

describe("engine stages", () => {
  const progress = (done: number, total = 18, failed = 0): LiveEvent => ({
    type: "engine_progress",
    data: { stage: "biso", done, total, failed },
  });

  test("live progress shows the stage at work without touching the log's cursor", () => {
    const t = live(applyEvent(EMPTY_TIMELINE, make("phase_change", 1, { phase: "explore", round: 0, resumed: false })), progress(0), progress(5));
    expect(t.engineProgress).toEqual({ stage: "biso", done: 5, total: 18, failed: 0 });
    expect([t.lastEventId, t.eventCount]).toEqual([1, 1]);
  });

  test("the stored engine_stage clears the bar and is an activity entry with its summary", () => {
    const working = live(EMPTY_TIMELINE, progress(17));
    const t = applyEvent(working, make("engine_stage", 4, { stage: "biso", summary: "54 hypotheses.", counts: { kept: 54 } }));
    expect(t.engineProgress).toBeNull();
    expect(t.activity.at(-1)).toEqual({ kind: "engine_stage", id: 4, stage: "biso", summary: "54 hypotheses." });
  });

  test("a done or a phase change clears a bar whose stage never reported (a crash, a cut)", () => {
    const working = live(EMPTY_TIMELINE, progress(3));
    expect(applyEvent(working, make("done", 2, { error: true, awaiting_input: false })).engineProgress).toBeNull();
    expect(applyEvent(working, make("phase_change", 2, { phase: "explore", round: 0, resumed: true })).engineProgress).toBeNull();
  });
});

describe("SAGA events", () => {
  const checkpoint = make("saga_checkpoint", 3, {
    checkpoint: "CP-4",
    round: 0,
    phase: "explore",
    summary: "CP-4 After BISO: 1 finding(s) (score compression); 1 directive(s).",
    passed: false,
    finding_ids: ["CP-4-r0-score_compression"],
    directive_ids: ["CP-4-r0-score_compression:ADJUST_SEARCH_PARAMS"],
    fast_events: ["BISO_COMPLETED"],
  });
  const finding = make("saga_finding", 1, {
    id: "CP-4-r0-score_compression",
    checkpoint: "CP-4",
    round: 0,
    kind: "score_compression",
    layer: 1,
    severity: "warning",
    statistic: 0.4,
    threshold: 0.8,
    p_value: null,
    hypothesis_ids: [],
    dimensions: [],
    message: "m",
    suggested_constraint: "",
  });

  test("a checkpoint is an activity entry and a mark on its phase; findings only count", () => {
    const t = applyEvents(EMPTY_TIMELINE, [finding, checkpoint]);
    expect(t.checkpoints).toEqual([
      { checkpoint: "CP-4", phase: "explore", round: 0, summary: checkpoint.data.summary, passed: false, findings: 1 },
    ]);
    expect(t.activity.map((a) => a.kind)).toEqual(["checkpoint"]);
    expect(t.supervisorEvents).toBe(2);
  });
});
