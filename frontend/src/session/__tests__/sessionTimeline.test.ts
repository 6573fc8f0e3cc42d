import { describe, expect, test } from "vitest";
import { make, recordedOf, RECORDED_EVENTS } from "../../test/sessionEvents";
import { applyEvent, applyEvents, EMPTY_TIMELINE } from "../sessionTimeline";

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
  test("agent_text deltas in a row merge into one block keyed by the first id", () => {
    const t = applyEvents(EMPTY_TIMELINE, [make("agent_text", 1, "Hel"), make("agent_text", 2, "lo")]);
    expect(t.activity).toEqual([{ kind: "text", id: 1, text: "Hello" }]);
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

  test("phase_change sets phase and round and clears the last error", () => {
    const failed = applyEvent(EMPTY_TIMELINE, make("error", 1, { code: "MODEL_ERROR", message: "down", severity: "error", recoverable: true }));
    const t = applyEvent(failed, make("phase_change", 2, { phase: "explore", round: 1 }));
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
