import { describe, expect, it } from "vitest";
import {
  cHistory,
  cHistoryLabel,
  evidenceWords,
  memoryDecisionFields,
  memorySearchParams,
  percent,
  sessionsOf,
  changeWords,
  sparklineDots,
  sparklinePoints,
  verdictWords,
  type RememberedHypothesis,
} from "../describeMemory";
import { rememberedTriage } from "./fixtures";

function hypothesis(overrides: Partial<RememberedHypothesis> = {}): RememberedHypothesis {
  const base = rememberedTriage();
  const refined = { at: "2026-11-22T10:00:00Z", session_id: "s1", context: base.origin_question, outcome: "refined" as const, c_before: 0.433, c_after: 0.43, rule: "§5.3 parent" };
  return { ...base, confidence: 0.43, usage_history: [...base.usage_history, refined], ...overrides };
}

describe("cHistory", () => {
  it("starts from the C before the first use and follows every change", () => {
    expect(cHistory(hypothesis())).toEqual([0.3, 0.37, 0.433, 0.43]);
  });

  it("is the current C alone when the hypothesis was never used", () => {
    expect(cHistory(hypothesis({ usage_history: [], confidence: 0.3 }))).toEqual([0.3]);
  });

  it("reads as percentages for a screen reader", () => {
    expect(cHistoryLabel([0.3, 0.37, 0.433])).toBe("30% → 37% → 43%");
  });
});

describe("sparklinePoints", () => {
  it("spreads the values across the width with C = 1 at the top and 0 at the bottom", () => {
    expect(sparklinePoints([0, 1], 100, 20, 0)).toBe("0,20 100,0");
    expect(sparklinePoints([0, 0.5, 1], 100, 20, 0)).toBe("0,20 50,10 100,0");
  });

  it("draws one value as a flat line and nothing as nothing", () => {
    expect(sparklinePoints([0.5], 100, 20, 0)).toBe("0,10 100,10");
    expect(sparklinePoints([], 100, 20)).toBe("");
  });

  it("keeps values outside 0..1 inside the box", () => {
    expect(sparklinePoints([-1, 2], 10, 10, 0)).toBe("0,10 10,0");
  });
});

describe("words", () => {
  it("names each verdict outcome in the product's words", () => {
    expect(verdictWords("supported")).toMatch(/accepted/);
    expect(verdictWords("contradicted")).toMatch(/rejected/);
    expect(verdictWords("refined")).toMatch(/qualified or merged/);
  });

  it("names a change with the similarity its rule used, and without one where none applies", () => {
    expect(changeWords({ outcome: "query_match", similarity: 0.8412 })).toBe("Retrieved by a new question (similarity 0.84)");
    expect(changeWords({ outcome: "conflict", similarity: 0.9 })).toMatch(/judged the other way \(similarity 0.90\)$/);
    expect(changeWords({ outcome: "supported", similarity: null })).toBe("Supported (accepted)");
  });

  it("places one plot point per C, on the plotted line", () => {
    expect(sparklineDots([0.3, 0.37], 120, 32)).toEqual([
      { x: 2, y: 21.6 },
      { x: 118, y: 19.6 },
    ]);
    expect(sparklineDots([0.5], 120, 32)).toHaveLength(1);
  });

  it("counts support and contradiction with singular and plural", () => {
    expect(evidenceWords(1, 2)).toBe("Supported 1 time, contradicted 2 times");
    expect(percent(0.955)).toBe("96%");
  });
});

describe("sessionsOf", () => {
  it("lists the origin first and every other session once", () => {
    expect(sessionsOf(hypothesis())).toEqual([
      { sessionId: "s1", question: "How can a hospital cut emergency waits?" },
      { sessionId: "s2", question: "How can a clinic cut patient waits?" },
    ]);
  });
});

describe("memorySearchParams", () => {
  it("leaves a blank query out and trims a real one", () => {
    expect(memorySearchParams("   ", 0.2, 20, 0)).toEqual({ min_c: 0.2, limit: 20, offset: 0 });
    expect(memorySearchParams("  triage ", 0, 10, 20)).toEqual({ q: "triage", min_c: 0, limit: 10, offset: 20 });
  });
});

describe("memoryDecisionFields", () => {
  it("sends the pinned and dismissed ids among those offered, in the offered order", () => {
    const offered = [{ episode_id: "a" }, { episode_id: "b" }, { episode_id: "c" }];
    expect(memoryDecisionFields({ c: "accept", a: "accept", b: "dismiss", gone: "accept" }, offered)).toEqual({
      accepted_memories: ["a", "c"],
      dismissed_memories: ["b"],
    });
  });

  it("adds no field when nothing was offered", () => {
    expect(memoryDecisionFields({ a: "accept" }, [])).toEqual({});
  });
});
