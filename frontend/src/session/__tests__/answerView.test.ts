import { describe, expect, test } from "vitest";
import {
  complianceHeadline,
  convergenceText,
  evidenceHref,
  methodologyLines,
  sessionTabs,
  traceLabel,
  verdictMark,
  type AnswerPack,
  type ComplianceCheck,
  type EvidenceItem,
} from "../answerView";

const check = (verdict: ComplianceCheck["verdict"], constraint = "without more staff"): ComplianceCheck => ({
  constraint,
  origin: "user",
  verdict,
  reason: "step 2",
  relaxing_allows: "",
});

const item = (source: string | null, claim_id: string | null = "5ba455fd-a354-45af"): EvidenceItem => ({
  verify_status: "unverified",
  statement: "Queues explode near full utilisation",
  claim_id,
  source,
  title: "Kingman",
  summary: "",
  relation: "supporting",
  trace: "research query: utilisation",
});

const solve = (status: AnswerPack["solve"]["status"], unresolved = 0): AnswerPack["solve"] => ({
  status,
  unresolved_high_risks: unresolved,
  outer_rounds: 2,
  attempts: 5,
  constraints_added: ["measure handovers"],
  notes: [],
  failure: "",
});

describe("compliance markers", () => {
  test("a violation is marked as one, never as a pass", () => {
    expect(verdictMark("violation")).toEqual({ symbol: "✗", label: "Violation", tone: "rose" });
    expect(verdictMark("pass").label).toBe("Pass");
    expect(verdictMark("unclear").tone).toBe("amber");
  });

  test("the headline counts the violations and the revisions", () => {
    const headline = complianceHeadline({ status: "violation", revisions: 2, checks: [check("violation"), check("pass", "budget")] });
    expect(headline).toEqual({
      text: "No solution meets every hard constraint: 1 of 2 cannot be met after 2 revisions. The solution is withheld; the direct answer says what relaxing each would allow.",
      tone: "rose",
    });
    expect(complianceHeadline({ status: "compliant", revisions: 0, checks: [check("pass")] }).text).toBe("All 1 hard constraint passed the audit.");
    expect(complianceHeadline({ status: "unverified", revisions: 1, checks: [check("unclear")] }).tone).toBe("amber");
    expect(complianceHeadline({ status: "compliant", revisions: 0, checks: [] }).tone).toBe("slate");
  });
});

describe("evidence trace", () => {
  test("only http(s) sources become links", () => {
    expect(evidenceHref(item("https://example.org/a"))).toBe("https://example.org/a");
    expect(evidenceHref(item("corpus://queueing/kingman"))).toBeNull();
    expect(evidenceHref(item("javascript:alert(1)"))).toBeNull();
    expect(evidenceHref(item(null))).toBeNull();
  });

  test("the trace names the claim and how the evidence entered the session", () => {
    expect(traceLabel(item("x"))).toBe("claim 5ba455fd · research query: utilisation");
    expect(traceLabel(item("x", null))).toBe("research query: utilisation");
  });
});

describe("solve and methodology", () => {
  test("convergence says how Solve ended and what is unresolved", () => {
    expect(convergenceText(solve("zero_high_risks"))).toBe("Converged: the last audit found no high risk.");
    expect(convergenceText(solve("limits_reached", 2))).toBe("Stopped at the iteration limits. 2 high risks remain unresolved.");
  });

  test("methodology lists domains, models (offline labelled), spend, solve and supervisor findings", () => {
    const pack = {
      offline: true,
      solve: solve("limits_reached", 1),
      methodology: { domains: ["Queueing"], operators: ["biso", "refine"], models: ["offline model"], rounds: 1, scoring: [], supervisor_findings: ["score compression"], spend: { tokens: 1200, cost_usd: 0.0123, calls: 3 } },
    } as unknown as AnswerPack;
    const lines = methodologyLines(pack);
    expect(lines.map((l) => l.label)).toEqual(["Source domains", "Operators", "Models", "Spend", "Solve", "Constraint from a risk", "Supervisor finding"]);
    expect(lines[2]?.value).toContain("offline");
    expect(lines[3]?.value).toBe("1,200 tokens · $0.0123 · 3 calls · 1 round");
  });

  test("the Answer tab exists, first, only once the session is finished", () => {
    expect(sessionTabs(true)[0]).toBe("answer");
    expect(sessionTabs(false)).not.toContain("answer");
  });
});
