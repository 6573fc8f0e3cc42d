import { describe, expect, test } from "vitest";
import { MAX_CHARS, problemsOf } from "../validateProblem";

const PROBLEM = "How can a clinic cut waiting times?";

describe("problemsOf", () => {
  test("a problem of fitting length with nothing pending can be sent", () => {
    expect(problemsOf(PROBLEM, [], "")).toEqual([]);
    expect(problemsOf(PROBLEM, ["keep staff"], "a typed constraint is added, not a problem")).toEqual([]);
  });

  test("a too-short problem says what to write", () => {
    expect(problemsOf("  short ", [], "")).toEqual(["Describe the problem in at least 10 characters — what should change, and what limits you."]);
  });

  test("a problem over the limit is explained with the exact excess, never cut", () => {
    const [message] = problemsOf("x".repeat(MAX_CHARS + 5000), [], "");
    expect(message).toContain("25,000 characters");
    expect(message).toContain("Shorten it by 5,000");
  });

  test("a typed constraint that cannot be added says why instead of vanishing", () => {
    const full = Array.from({ length: 10 }, (_, i) => `constraint ${i}`);
    expect(problemsOf(PROBLEM, full, "one more")).toEqual(["You typed a constraint but the list is full (10): remove one or clear the field."]);
    expect(problemsOf(PROBLEM, [], "y".repeat(301))[0]).toContain("301 characters; the limit is 300");
  });
});
