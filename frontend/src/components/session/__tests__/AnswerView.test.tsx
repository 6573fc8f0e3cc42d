import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AnswerPack } from "../../../session/answerView";
import { AnswerPackView } from "../AnswerView";

function pack(verdict: "pass" | "violation"): AnswerPack {
  return {
    title: "Cut emergency wait times",
    question: "How can a hospital cut emergency wait times without more staff?",
    direct_answer: "Smooth the evening peak; it keeps the limit without more staff.",
    solution_markdown: "1. Move electives\n2. Watch waits",
    key_evidence: [
      { statement: "Queues explode near full utilisation", claim_id: "5ba455fd-a354", source: "https://example.org/kingman", title: "Kingman", summary: "", relation: "supporting", trace: "research query: utilisation", verify_status: "failed" },
      { statement: "Boarding blocks cubicles", claim_id: null, source: "corpus://applications/patient-flow", title: "Patient flow", summary: "", relation: "contextual", trace: "research", verify_status: "passed" },
    ],
    risks: [{ text: "labs are late at night", severity: "high", mitigation: "start labs earlier", unresolved: true }],
    boundaries: ["Stop if: waits do not fall"],
    ranking: [{ id: "h1", title: "Utilisation hockey stick", domain: "Queueing theory", statement: "", score: 7.25, gate_status: "passed", verify_status: "unverified", novelty_unverified: false, prior_art_searched: "" }],
    compliance: {
      status: verdict === "violation" ? "violation" : "compliant",
      revisions: verdict === "violation" ? 2 : 0,
      checks: [
        { constraint: "without more staff", origin: "user", verdict, reason: "step 2 hires two nurses", relaxing_allows: "" },
        { constraint: "budget under 50k", origin: "user", verdict: "pass", reason: "costs 10k", relaxing_allows: "" },
      ],
    },
    solve: { status: "zero_high_risks", unresolved_high_risks: 0, outer_rounds: 1, attempts: 2, constraints_added: [], notes: [], failure: "" },
    methodology: { domains: ["Queueing theory"], operators: ["biso"], models: ["offline model"], rounds: 1, scoring: [], supervisor_findings: [], spend: { tokens: 0, cost_usd: 0, calls: 0 } },
    written_by: "offline model",
    offline: true,
  };
}

describe("AnswerPackView", () => {
  it("marks a violated constraint in words, says so above the table, and passes the others", () => {
    render(<AnswerPackView sessionId="s1" pack={pack("violation")} />);
    const table = screen.getByTestId("compliance-table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-verdict"))).toEqual(["violation", "pass"]);
    expect(within(rows[0]!).getByText("Violation")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Pass")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("No solution meets every hard constraint: 1 of 2 cannot be met after 2 revisions");
  });

  it("withholds a violating solution: the direct answer names the constraint that cannot be met and what relaxing it would allow", () => {
    const withheld: AnswerPack = {
      ...pack("violation"),
      direct_answer: "No solution meets every hard constraint: …",
      solution_markdown: "No solution is delivered: the best one Solve reached breaks a hard constraint (see the direct answer).",
      cannot_be_met: {
        constraints: [{ constraint: "without more staff", origin: "user", why: "step 2 hires two nurses", relaxing_allows: "two more evening nurses would halve the peak wait" }],
        revisions: 2,
        withheld_answer: "Hire two evening nurses.",
      },
    };
    render(<AnswerPackView sessionId="s1" pack={withheld} />);
    const unmet = screen.getByTestId("cannot-be-met");
    expect(unmet).toHaveTextContent("Which hard constraint cannot be met");
    expect(unmet).toHaveTextContent("“without more staff” cannot be met: step 2 hires two nurses");
    expect(unmet).toHaveTextContent("Relaxing it would allow: two more evening nurses would halve the peak wait");
    expect(screen.queryByText(/Hire two evening nurses/)).not.toBeInTheDocument();
  });

  it("ranks only verified hypotheses with VERIFY's status and score, and lists the checked ones that did not pass", () => {
    const verified: AnswerPack = {
      ...pack("pass"),
      ranking: [{ id: "h1", title: "Utilisation hockey stick", domain: "Queueing theory", statement: "", score: 7.25, gate_status: "passed", verify_status: "passed", verify_score: 6.8, novelty_unverified: false, prior_art_searched: "" }],
      unranked: [{ id: "h2", title: "Packet pacing", domain: "Networking", statement: "", score: 6.1, gate_status: "passed", verify_status: "failed", verify_score: 4.2, novelty_unverified: false, prior_art_searched: "" }],
    };
    render(<AnswerPackView sessionId="s1" pack={verified} />);
    const ranking = screen.getByRole("heading", { name: "Hypothesis ranking" }).parentElement!;
    expect(within(ranking).getByText("Utilisation hockey stick").parentElement).toHaveTextContent("score 7.25, gate gate passed, passed 6.8");
    expect(within(screen.getByTestId("answer-unranked")).getByText("Packet pacing").parentElement).toHaveTextContent("failed 4.2");
  });

  it("says novelty unverified for a ranked hypothesis whose prior-art search found nothing", () => {
    const unverified: AnswerPack = {
      ...pack("pass"),
      ranking: [{ id: "h1", title: "Utilisation hockey stick", domain: "Queueing theory", statement: "", score: 7.25, gate_status: "passed", verify_status: "passed", verify_score: 6.6, novelty_unverified: true, prior_art_searched: "local_corpus" }],
    };
    render(<AnswerPackView sessionId="s1" pack={unverified} />);
    expect(screen.getByText("Utilisation hockey stick").parentElement).toHaveTextContent("passed 6.6 (novelty unverified)");
  });

  it("says no hypothesis passed VERIFY when every candidate failed", () => {
    const none: AnswerPack = {
      ...pack("pass"),
      ranking: [],
      unranked: [{ id: "h2", title: "Packet pacing", domain: "Networking", statement: "", score: 6.1, gate_status: "passed", verify_status: "unverified", verify_score: null, novelty_unverified: false, prior_art_searched: "" }],
    };
    render(<AnswerPackView sessionId="s1" pack={none} />);
    expect(screen.getByText("No hypothesis passed VERIFY, so none is ranked.")).toBeInTheDocument();
    expect(screen.getByTestId("answer-unranked")).toHaveTextContent("Packet pacing");
  });

  it("shows the direct answer first, the offline label, traced evidence and a safe link only for http sources", () => {
    render(<AnswerPackView sessionId="s1" pack={pack("pass")} />);
    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings[0]).toBe("Direct answer");
    expect(screen.getByText(/Offline model/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Kingman" })).toHaveAttribute("href", "https://example.org/kingman");
    expect(screen.queryByRole("link", { name: "Patient flow" })).not.toBeInTheDocument();
    expect(screen.getByText("Traced to: claim 5ba455fd · research query: utilisation")).toBeInTheDocument();
    expect(screen.getByText(/labs are late at night/)).toBeInTheDocument();
    expect(screen.getByText("Utilisation hockey stick")).toBeInTheDocument();
    expect(screen.getByTestId("answer-methodology").tagName).toBe("DETAILS");
    // the claim VERIFY failed stands by the person's verdict, said beside its evidence (once: the other passed)
    expect(screen.getAllByText("kept by the person although VERIFY failed it")).toHaveLength(1);
    expect(screen.getByRole("status")).toHaveTextContent("All 2 hard constraints passed the audit.");
  });
});
