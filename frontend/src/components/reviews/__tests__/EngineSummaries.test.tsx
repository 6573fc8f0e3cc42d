import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProblemFrameSummary, SourceDomainsSummary } from "../EngineSummaries";

describe("ProblemFrameSummary", () => {
  it("shows the objective, the hard constraints and each audit finding in words", () => {
    render(
      <ProblemFrameSummary
        view={{
          frame: {
            objective: "Cut emergency wait times",
            target_object: "emergency department",
            target_outcome: "median wait under 30 minutes",
            hard_constraints: ["no more staff", "budget under 50k"],
            soft_constraints: [],
            success_criteria: [],
            stakeholders: ["patients"],
            scope: "",
            domain_tags: [],
          },
          audit: {
            kept: [],
            findings: [
              { kind: "duplicate", indices: [0, 2], message: "“without hiring more staff” says the same as “no more staff”." },
              { kind: "undecidable", indices: [1], message: "“keep costs reasonable” cannot be checked as written." },
            ],
          },
        }}
      />,
    );
    expect(screen.getByText("Cut emergency wait times")).toBeInTheDocument();
    expect(screen.getByText("budget under 50k")).toBeInTheDocument();
    const findings = within(screen.getByRole("list", { name: "Constraint audit findings" })).getAllByRole("listitem");
    expect(findings.map((f) => f.textContent)).toEqual([
      "Merged: “without hiring more staff” says the same as “no more staff”.",
      "Cannot be checked: “keep costs reasonable” cannot be checked as written.",
    ]);
  });
});

describe("SourceDomainsSummary", () => {
  it("lists each chosen domain with why and its yield, and the pool totals", () => {
    const chosen = (id: string, name: string) => ({
      domain_id: id,
      name,
      relevance: 0.4,
      distance: 0.8,
      band: "far" as const,
      gain: 0.3,
      suggested: false,
      reason: `far from the problem; its structures speak to ${id}`,
    });
    render(
      <SourceDomainsSummary
        selection={{ chosen: [chosen("queueing", "Queueing theory"), chosen("ecology", "Ecology"), chosen("tides", "Tides")], filtered_out: [], shortfall: null }}
        pool={{
          round: 0,
          generated: 6,
          kept: 5,
          passed: 4,
          domains: [
            { domain_id: "queueing", domain_name: "Queueing theory", hypotheses: 3, passed: 3, failure: "", declined: "" },
            { domain_id: "ecology", domain_name: "Ecology", hypotheses: 0, passed: 0, failure: "no valid output", declined: "" },
            { domain_id: "tides", domain_name: "Tides", hypotheses: 0, passed: 0, failure: "", declined: "no periodic forcing here" },
          ],
        }}
      />,
    );
    expect(screen.getByText(/5 hypotheses in the pool \(6 generated/)).toBeInTheDocument();
    const items = within(screen.getByRole("list", { name: "Source domains explored" })).getAllByRole("listitem");
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent("3 hypotheses, 3 passed the gate");
    expect(items[1]).toHaveTextContent("no hypotheses: no valid output");
    expect(items[2]).toHaveTextContent("declined as not fitting: no periodic forcing here");
  });

  it("lists the domains Stage B left out, each with the judge's reason", () => {
    render(
      <SourceDomainsSummary
        selection={{
          chosen: [],
          filtered_out: [{ domain_id: "tides", feasibility: "infeasible", reason: "Nothing periodic drives arrivals here." }],
          shortfall: null,
        }}
        pool={null}
      />,
    );
    const list = screen.getByRole("list", { name: /Left out before the choice \(1\)/ });
    expect(within(list).getByRole("listitem")).toHaveTextContent("tides: Nothing periodic drives arrivals here.");
  });
});
