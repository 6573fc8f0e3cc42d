import { describe, expect, it } from "vitest";
import {
  EMPTY_BUILD_DRAFT,
  EMPTY_DECOMPOSE_DRAFT,
  EMPTY_EXPLORE_DRAFT,
  EMPTY_VERDICT,
  isHttpUrl,
  validateBuild,
  validateClaims,
  validateDecompose,
  validateExplore,
  validateVerdicts,
} from "../validateReviews";
import { recordedEvent, verdictsWithThreeClaims } from "./fixtures/reviewEvents";

const decompose = recordedEvent("decompose").data;
const explore = recordedEvent("explore").data;
const claims = recordedEvent("claims").data;
const verdicts = recordedEvent("verdicts").data;
const build = recordedEvent("build").data;
const buildFinal = recordedEvent("buildFinal").data;

function errorsOf(result: ReturnType<typeof validateDecompose>): string[] {
  return result.ok ? [] : result.errors;
}

describe("validateDecompose", () => {
  const conflicted = {
    ...decompose,
    constraint_conflicts: [
      { indices: [0, 2], constraints: ["a", "c"], message: "a and c conflict", resolve: "" },
      { indices: [1, 2], constraints: ["b", "c"], message: "b and c conflict", resolve: "" },
    ],
  };
  const reframed = { ...EMPTY_DECOMPOSE_DRAFT, selectedReframings: [0] };

  it("names each CP-1 conflict none of whose constraints is dropped or relaxed", () => {
    expect(errorsOf(validateDecompose(reframed, conflicted))).toEqual([
      "Constraints 1 and 3 cannot both be met: drop or relax one of them.",
      "Constraints 2 and 3 cannot both be met: drop or relax one of them.",
    ]);
    expect(errorsOf(validateDecompose({ ...reframed, constraintChanges: { 0: null } }, conflicted))).toEqual([
      "Constraints 2 and 3 cannot both be met: drop or relax one of them.",
    ]);
  });

  it("one constraint shared by two conflicts resolves both, sent in index order with its looser wording", () => {
    const result = validateDecompose({ ...reframed, constraintChanges: { 2: "  c, loosely ", 0: null } }, conflicted);
    expect(result.ok && result.input.constraint_changes).toEqual([{ index: 0 }, { index: 2, relaxed_to: "c, loosely" }]);
    expect(errorsOf(validateDecompose({ ...reframed, constraintChanges: { 2: "  " } }, conflicted))).toEqual([
      "Write the looser wording for constraint 3, or drop it instead.",
    ]);
  });

  it("requires a selected or added reframing, and says so", () => {
    const result = validateDecompose(EMPTY_DECOMPOSE_DRAFT, decompose);
    expect(result.ok).toBe(false);
    expect(errorsOf(result).join(" ")).toMatch(/at least one reframing/i);
  });

  it("accepts an added reframing instead of a selected one", () => {
    const result = validateDecompose({ ...EMPTY_DECOMPOSE_DRAFT, addedReframings: ["  Treat waiting as a buffer  "] }, decompose);
    expect(result).toEqual({
      ok: true,
      input: {
        type: "decompose_review",
        selected_reframings: [],
        confirmed_assumptions: [],
        rejected_assumptions: [],
        added_assumptions: [],
        added_reframings: ["Treat waiting as a buffer"],
      },
    });
  });

  it("does not count a blank added reframing", () => {
    expect(validateDecompose({ ...EMPTY_DECOMPOSE_DRAFT, addedReframings: ["   "] }, decompose).ok).toBe(false);
  });

  it("refuses an assumption that is both confirmed and rejected", () => {
    const result = validateDecompose(
      { ...EMPTY_DECOMPOSE_DRAFT, selectedReframings: [0], confirmedAssumptions: [1], rejectedAssumptions: [1, 2] },
      decompose,
    );
    expect(errorsOf(result)).toEqual(["Assumption 2 is both confirmed and rejected; choose one."]);
  });

  it("refuses indices outside the review", () => {
    const result = validateDecompose({ ...EMPTY_DECOMPOSE_DRAFT, selectedReframings: [decompose.reframings.length], confirmedAssumptions: [99] }, decompose);
    expect(errorsOf(result)).toEqual([
      `Reframing ${decompose.reframings.length + 1} is not part of this review.`,
      "Assumption 100 is not part of this review.",
    ]);
  });

  it("sends sorted, de-duplicated indices and trimmed texts", () => {
    const result = validateDecompose(
      {
        selectedReframings: [2, 0, 2],
        confirmedAssumptions: [3, 0],
        rejectedAssumptions: [4],
        addedAssumptions: [" Patients arrive at random "],
        addedReframings: [],
        pendingAssumption: "",
        pendingReframing: "",
      },
      decompose,
    );
    expect(result).toEqual({
      ok: true,
      input: {
        type: "decompose_review",
        selected_reframings: [0, 2],
        confirmed_assumptions: [0, 3],
        rejected_assumptions: [4],
        added_assumptions: ["Patients arrive at random"],
        added_reframings: [],
      },
    });
  });

  it("sends texts typed in the add fields but not added, so nothing typed is lost", () => {
    const draft = { ...EMPTY_DECOMPOSE_DRAFT, addedAssumptions: ["Demand is even"], pendingAssumption: " Staff are interchangeable ", pendingReframing: "Treat the queue as a buffer" };
    expect(validateDecompose(draft, decompose)).toMatchObject({
      ok: true,
      input: { added_assumptions: ["Demand is even", "Staff are interchangeable"], added_reframings: ["Treat the queue as a buffer"] },
    });
    const explored = validateExplore({ ...EMPTY_EXPLORE_DRAFT, starredAnalogies: [0], pendingDomain: "Beekeeping" }, explore);
    expect(explored).toMatchObject({ ok: true, input: { suggested_domains: ["Beekeeping"] } });
  });

  it("explains a typed text too long to send instead of cutting it", () => {
    const draft = { ...EMPTY_DECOMPOSE_DRAFT, selectedReframings: [0], pendingAssumption: "x".repeat(320) };
    expect(errorsOf(validateDecompose(draft, decompose))).toEqual([`The assumption “${"x".repeat(40)}…” is 320 characters; shorten it to 300.`]);
  });

  it("refuses more than ten added assumptions", () => {
    const many = Array.from({ length: 11 }, (_, i) => `assumption ${i}`);
    expect(errorsOf(validateDecompose({ ...EMPTY_DECOMPOSE_DRAFT, selectedReframings: [0], addedAssumptions: many }, decompose))).toEqual([
      "Add at most 10 assumptions.",
    ]);
  });
});

describe("validateExplore", () => {
  it("requires at least one starred analogy", () => {
    const result = validateExplore({ ...EMPTY_EXPLORE_DRAFT, starredAnalogies: [], suggestedDomains: ["Air traffic control"] }, explore);
    expect(result.ok).toBe(false);
    expect(errorsOf(result).join(" ")).toMatch(/star at least one analogy/i);
  });

  it("builds the body from the starred analogies and suggested domains", () => {
    expect(validateExplore({ ...EMPTY_EXPLORE_DRAFT, starredAnalogies: [2, 0], suggestedDomains: ["Air traffic control", " "] }, explore)).toEqual({
      ok: true,
      input: { type: "explore_review", starred_analogies: [0, 2], suggested_domains: ["Air traffic control"] },
    });
  });

  it("accepts stars from the pool alone and sends their ids once", () => {
    expect(validateExplore({ ...EMPTY_EXPLORE_DRAFT, starredHypotheses: ["biso-0-a-1", "biso-0-a-1", "search-0-b"] }, explore)).toEqual({
      ok: true,
      input: { type: "explore_review", starred_analogies: [], suggested_domains: [], starred_hypotheses: ["biso-0-a-1", "search-0-b"] },
    });
  });

  it("reads a draft saved before the pool could be starred", () => {
    const old = { starredAnalogies: [0], suggestedDomains: [], pendingDomain: "" };
    expect(validateExplore(old, explore)).toEqual({
      ok: true,
      input: { type: "explore_review", starred_analogies: [0], suggested_domains: [] },
    });
  });

  it("refuses an analogy outside the review", () => {
    expect(errorsOf(validateExplore({ ...EMPTY_EXPLORE_DRAFT, starredAnalogies: [explore.analogies.length], suggestedDomains: [] }, explore))).toEqual([
      `Analogy ${explore.analogies.length + 1} is not part of this review.`,
    ]);
  });
});

describe("validateClaims", () => {
  it("sends feedback only for claims that have some, trimmed and in claim order", () => {
    expect(validateClaims({ feedback: { 1: "  Check nights.  ", 0: "   " } }, claims)).toEqual({
      ok: true,
      input: { type: "claims_review", claim_feedback: [{ claim_index: 1, feedback: "Check nights." }] },
    });
  });

  it("sends an empty list when there is no feedback at all", () => {
    expect(validateClaims({ feedback: {} }, claims)).toEqual({ ok: true, input: { type: "claims_review", claim_feedback: [] } });
  });

  it("refuses feedback longer than 4000 characters", () => {
    const result = validateClaims({ feedback: { 0: "x".repeat(4001) } }, claims);
    expect(errorsOf(result)).toEqual(["Feedback on claim 1 is 4001 characters long; shorten it to at most 4000."]);
  });

  it("accepts feedback of exactly 4000 characters", () => {
    expect(validateClaims({ feedback: { 0: "x".repeat(4000) } }, claims).ok).toBe(true);
  });
});

describe("validateVerdicts", () => {
  it("requires a verdict for every claim", () => {
    const result = validateVerdicts({ verdicts: { 0: { ...EMPTY_VERDICT, verdict: "accept" } } }, verdicts);
    expect(errorsOf(result)).toEqual(["Choose a verdict for claim 2."]);
  });

  it("sends exactly one verdict per claim, in claim order, with only the fields that apply", () => {
    const result = validateVerdicts(
      {
        verdicts: {
          1: { verdict: "qualify", reason: " ", qualification: " only at peak hours ", mergeWith: 0 },
          0: { verdict: "reject", reason: " fails at night ", qualification: "stale text", mergeWith: null },
        },
      },
      verdicts,
    );
    expect(result).toEqual({
      ok: true,
      input: {
        type: "verdicts",
        verdicts: [
          { claim_index: 0, verdict: "reject", reason: "fails at night" },
          { claim_index: 1, verdict: "qualify", qualification: "only at peak hours" },
        ],
      },
    });
  });

  it("qualify requires a qualification", () => {
    const result = validateVerdicts(
      { verdicts: { 0: { ...EMPTY_VERDICT, verdict: "accept" }, 1: { ...EMPTY_VERDICT, verdict: "qualify", qualification: "   " } } },
      verdicts,
    );
    expect(errorsOf(result)).toEqual(["Claim 2 is qualified: write the qualification (when or where it holds)."]);
  });

  it("merge requires another claim of the round", () => {
    const three = verdictsWithThreeClaims().data;
    const merge = (mergeWith: number | null) =>
      validateVerdicts(
        {
          verdicts: {
            0: { ...EMPTY_VERDICT, verdict: "accept" },
            1: { ...EMPTY_VERDICT, verdict: "merge", mergeWith },
            2: { ...EMPTY_VERDICT, verdict: "accept" },
          },
        },
        three,
      );
    const message = "Claim 2 is merged: choose another claim of this round to merge it with.";
    expect(errorsOf(merge(null))).toEqual([message]);
    expect(errorsOf(merge(1))).toEqual([message]);
    expect(errorsOf(merge(3))).toEqual([message]);
    const ok = merge(2);
    expect(ok.ok && ok.input.verdicts).toEqual([
      { claim_index: 0, verdict: "accept" },
      { claim_index: 1, verdict: "merge", merge_with_index: 2 },
      { claim_index: 2, verdict: "accept" },
    ]);
  });

  it("refuses a reason longer than 4000 characters", () => {
    const result = validateVerdicts(
      { verdicts: { 0: { ...EMPTY_VERDICT, verdict: "accept", reason: "y".repeat(4001) }, 1: { ...EMPTY_VERDICT, verdict: "accept" } } },
      verdicts,
    );
    expect(errorsOf(result)).toEqual(["The reason for claim 1 is longer than 4000 characters."]);
  });
});

describe("validateBuild", () => {
  const firstNode = build.graph.nodes[0]?.id ?? "";

  it("requires a decision", () => {
    expect(errorsOf(validateBuild(EMPTY_BUILD_DRAFT, build))).toEqual(["Choose what to do next."]);
  });

  it("sends only the decision for continue and resolve", () => {
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "continue", insight: "ignored" }, build)).toEqual({
      ok: true,
      input: { type: "build_decision", decision: "continue" },
    });
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "resolve", deepDiveClaimId: firstNode }, build)).toEqual({
      ok: true,
      input: { type: "build_decision", decision: "resolve" },
    });
  });

  it("refuses continue and deep_dive once the last round is reached", () => {
    const lastNode = buildFinal.graph.nodes[0]?.id ?? "";
    expect(errorsOf(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "continue" }, buildFinal))).toEqual([
      "This was the last allowed round: resolve the session or add an insight instead.",
    ]);
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "deep_dive", deepDiveClaimId: lastNode }, buildFinal).ok).toBe(false);
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "resolve" }, buildFinal).ok).toBe(true);
  });

  it("deep_dive needs a claim of the graph", () => {
    expect(errorsOf(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "deep_dive", deepDiveClaimId: "" }, build))).toEqual([
      "Choose the claim of the knowledge graph to deep-dive into.",
    ]);
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "deep_dive", deepDiveClaimId: "not-a-claim" }, build).ok).toBe(false);
    expect(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "deep_dive", deepDiveClaimId: firstNode }, build)).toEqual({
      ok: true,
      input: { type: "build_decision", decision: "deep_dive", deep_dive_claim_id: firstNode },
    });
  });

  it("add_insight needs the insight text", () => {
    expect(errorsOf(validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "add_insight", insight: "  " }, build))).toEqual([
      "Write the insight to add to the knowledge graph.",
    ]);
  });

  it("add_insight rejects a non-http evidence URL", () => {
    const result = validateBuild(
      { ...EMPTY_BUILD_DRAFT, decision: "add_insight", insight: "Nights differ.", evidenceUrls: ["https://example.org/a", "ftp://example.org/b", "example.org"] },
      build,
    );
    expect(errorsOf(result)).toEqual([
      "“ftp://example.org/b” is not a web address: evidence URLs must start with http:// or https://.",
      "“example.org” is not a web address: evidence URLs must start with http:// or https://.",
    ]);
  });

  it("add_insight sends a URL typed but not added along with the added ones", () => {
    const draft = { ...EMPTY_BUILD_DRAFT, decision: "add_insight" as const, insight: "Nights differ.", evidenceUrls: ["http://example.org/a"], pendingEvidenceUrl: " https://example.org/b " };
    expect(validateBuild(draft, buildFinal)).toEqual({
      ok: true,
      input: { type: "build_decision", decision: "add_insight", user_insight: "Nights differ.", user_evidence_urls: ["http://example.org/a", "https://example.org/b"] },
    });
  });

  it("add_insight says a URL typed but not added is not a web address instead of dropping it", () => {
    const draft = { ...EMPTY_BUILD_DRAFT, decision: "add_insight" as const, insight: "Nights differ.", pendingEvidenceUrl: "example.org/b" };
    expect(errorsOf(validateBuild(draft, buildFinal))).toEqual([
      "“example.org/b” is not a web address: evidence URLs must start with http:// or https:// (typed in the evidence field, not added yet — fix or clear it).",
    ]);
  });

  it("add_insight sends the trimmed insight and its URLs", () => {
    expect(
      validateBuild({ ...EMPTY_BUILD_DRAFT, decision: "add_insight", insight: " Nights differ. ", evidenceUrls: ["http://example.org/a"] }, buildFinal),
    ).toEqual({
      ok: true,
      input: { type: "build_decision", decision: "add_insight", user_insight: "Nights differ.", user_evidence_urls: ["http://example.org/a"] },
    });
  });
});

describe("isHttpUrl", () => {
  it("accepts http and https addresses with a host only", () => {
    expect(isHttpUrl("https://example.org/x?y=1")).toBe(true);
    expect(isHttpUrl("http://localhost:8000")).toBe(true);
    expect(isHttpUrl("corpus://queueing/littles-law")).toBe(false);
    expect(isHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isHttpUrl("www.example.org")).toBe(false);
    expect(isHttpUrl("")).toBe(false);
  });
});
