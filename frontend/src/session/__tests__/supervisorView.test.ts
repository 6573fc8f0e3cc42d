import { describe, expect, test } from "vitest";
import {
  checkpointsByPhase,
  decisionCount,
  describeStatistic,
  findingsByCheckpoint,
  listIds,
  NO_DECISIONS,
  toggleDecision,
  withDecisions,
  type SupervisorFinding,
} from "../supervisorView";
import type { CheckpointMark } from "../sessionTimeline";

function finding(over: Partial<SupervisorFinding>): SupervisorFinding {
  return {
    id: "CP-4-r0-score_compression",
    checkpoint: "CP-4",
    round: 0,
    kind: "score_compression",
    layer: 1,
    severity: "warning",
    statistic: 0.4567,
    threshold: 0.8,
    p_value: null,
    hypothesis_ids: ["h1"],
    dimensions: [],
    message: "m",
    suggested_constraint: "",
    dismissed: false,
    ...over,
  };
}

describe("describeStatistic", () => {
  test("states the comparison that made each detector fire", () => {
    expect(describeStatistic(finding({}))).toBe("std 0.46 < 0.8");
    expect(describeStatistic(finding({ kind: "dimension_collinearity", statistic: 0.934, threshold: 0.7 }))).toBe("|r| 0.93 > 0.7");
    expect(describeStatistic(finding({ kind: "source_domain_bias", statistic: 13.5, threshold: 0.05, p_value: 0.02131 }))).toBe(
      "F 13.5, p 0.021 < 0.05",
    );
    expect(describeStatistic(finding({ kind: "shallow_rewrite", statistic: 4, threshold: 1.5 }))).toBe("|Δscore| 4 ≥ 1.5");
    expect(describeStatistic(finding({ kind: "diversity_collapse", statistic: 0.6, threshold: 0.6 }))).toBe("share 60% ≥ 60%");
  });

  test("a count-like finding without a statistic says nothing", () => {
    expect(describeStatistic(finding({ kind: "constraint_audit", statistic: 0, threshold: 0 }))).toBe("");
  });
});

describe("decisions", () => {
  test("toggle on and off, and count", () => {
    const once = toggleDecision(NO_DECISIONS, "dismissed", "f1");
    expect(once.dismissed).toEqual(["f1"]);
    const adopted = toggleDecision(once, "adopted", "d1");
    expect(decisionCount(adopted)).toBe(2);
    expect(toggleDecision(adopted, "dismissed", "f1").dismissed).toEqual([]);
  });

  test("a review carries the decisions only when there are some", () => {
    const review = { type: "claims_review" as const };
    expect(withDecisions(review, NO_DECISIONS)).toEqual(review);
    expect(withDecisions(review, { dismissed: ["f1"], adopted: ["d1"] })).toEqual({
      type: "claims_review",
      dismissed_findings: ["f1"],
      adopted_constraints: ["d1"],
    });
  });
});

test("findings group by checkpoint in order; checkpoint marks by phase", () => {
  const groups = findingsByCheckpoint([finding({ id: "a" }), finding({ id: "b", checkpoint: "CP-5" }), finding({ id: "c" })]);
  expect(groups.map(([cp, fs]) => [cp, fs.map((f) => f.id)])).toEqual([
    ["CP-4", ["a", "c"]],
    ["CP-5", ["b"]],
  ]);
  const mark = (checkpoint: CheckpointMark["checkpoint"], phase: CheckpointMark["phase"]): CheckpointMark => ({
    checkpoint,
    phase,
    round: 0,
    summary: "",
    passed: true,
    findings: 0,
  });
  const byPhase = checkpointsByPhase([mark("CP-2", "explore"), mark("CP-1", "decompose"), mark("CP-3", "explore")]);
  expect(byPhase.explore?.map((m) => m.checkpoint)).toEqual(["CP-2", "CP-3"]);
  expect(byPhase.validate).toBeUndefined();
});

test("listIds shortens long lists", () => {
  expect(listIds(["a", "b"])).toBe("a, b");
  expect(listIds(["a", "b", "c", "d", "e"])).toBe("a, b, c and 2 more");
});
