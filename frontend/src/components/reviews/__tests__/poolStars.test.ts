import { describe, expect, it } from "vitest";
import { canStar, groupPoolByDomain, MAX_POOL_STARS, toggleStar } from "../poolStars";
import { hypothesis } from "./fixtures/lineageFixtures";

function scored(id: string, domain: string, score: number, status: "passed" | "failed" = "passed") {
  const h = hypothesis(id, "biso");
  return { ...h, domain_id: domain, domain_name: domain.toUpperCase(), gate: { ...h.gate, mapping_score: score, status } };
}

describe("groupPoolByDomain", () => {
  it("groups by domain, best first inside, domains with more passed hypotheses first", () => {
    const groups = groupPoolByDomain([
      scored("a1", "ants", 6),
      scored("q1", "queues", 4, "failed"),
      scored("a2", "ants", 8),
      scored("b1", "bees", 9),
      scored("b2", "bees", 7),
      scored("q2", "queues", 7),
    ]);
    expect(groups.map((g) => g.domainId)).toEqual(["bees", "ants", "queues"]);
    expect(groups[1]?.hypotheses.map((h) => h.id)).toEqual(["a2", "a1"]);
    expect(groups.map((g) => g.passed)).toEqual([2, 2, 1]);
    expect(groups[0]?.domainName).toBe("BEES");
  });

  it("is empty for an empty pool", () => {
    expect(groupPoolByDomain([])).toEqual([]);
  });
});

describe("starring", () => {
  it("only a table that passed the gate can be starred", () => {
    expect(canStar(scored("x", "d", 3, "failed"))).toBe(false);
    expect(canStar(scored("y", "d", 7))).toBe(true);
  });

  it("toggles and never exceeds the cap", () => {
    expect(toggleStar(["a"], "b")).toEqual(["a", "b"]);
    expect(toggleStar(["a", "b"], "a")).toEqual(["b"]);
    const full = Array.from({ length: MAX_POOL_STARS }, (_, i) => `h${i}`);
    expect(toggleStar(full, "one-more")).toEqual(full);
    expect(toggleStar(full, "h0")).toHaveLength(MAX_POOL_STARS - 1);
  });
});
