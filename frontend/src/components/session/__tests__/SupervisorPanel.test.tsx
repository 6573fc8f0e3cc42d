import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { NO_DECISIONS, type Supervisor } from "../../../session/supervisorView";
import { SupervisorPanel } from "../SupervisorPanel";

const SUPERVISOR: Supervisor = {
  findings: [
    {
      id: "CP-4-r0-source_domain_bias",
      checkpoint: "CP-4",
      round: 0,
      kind: "source_domain_bias",
      layer: 1,
      severity: "warning",
      statistic: 13.5,
      threshold: 0.05,
      p_value: 0.0213,
      hypothesis_ids: ["biso-0-ecology-1", "biso-0-ecology-2"],
      dimensions: ["ecology", "music"],
      message: "Scores differ by source domain.",
      suggested_constraint: "",
      dismissed: false,
    },
  ],
  directives: [
    {
      id: "CP-4-r0-anti_pattern:ADD_CONSTRAINT",
      kind: "ADD_CONSTRAINT",
      finding_id: "CP-4-r0-anti_pattern",
      message: "Suggested constraint: change the flow, not headcount.",
      weights: {},
      quota_changes: {},
      hypothesis_ids: [],
      constraint: "Change the flow, not headcount.",
      challenge: "",
      adoptable: true,
      adopted: false,
    },
  ],
  checkpoints: [
    {
      checkpoint: "CP-4",
      title: "After BISO: compression, diversity",
      round: 0,
      phase: "explore",
      summary: "CP-4: 1 finding",
      passed: false,
      finding_ids: ["CP-4-r0-source_domain_bias"],
      directive_ids: [],
      fast_events: ["BISO_COMPLETED"],
    },
  ],
  stages: [],
  weights: { divergence: 0.21 },
  quota_changes: { oppose: 1 },
  flagged: [],
  paused: false,
  budget: { strategy: "ANOMALY_DRIVEN", total_units: 100, remaining: {}, spent: { adversarial_eval: 9 } },
  ck: { space: "C", k_expansions: 0, transitions: [] },
};

describe("SupervisorPanel", () => {
  it("lists findings with their statistic and the hypotheses involved, and the directives", () => {
    render(<SupervisorPanel supervisor={SUPERVISOR} reviewOpen={false} decisions={NO_DECISIONS} onToggle={() => {}} />);
    const cp4 = screen.getByRole("region", { name: "CP-4 findings" });
    expect(within(cp4).getByText("F 13.5, p 0.021 < 0.05")).toBeInTheDocument();
    expect(within(cp4).getByText("Affected: biso-0-ecology-1, biso-0-ecology-2")).toBeInTheDocument();
    expect(screen.getByText("ADD_CONSTRAINT")).toBeInTheDocument();
    expect(screen.getByText("9 of 100 units spent")).toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });

  it("while a review waits, offers to dismiss findings and adopt constraints by keyboard", async () => {
    const onToggle = vi.fn();
    render(<SupervisorPanel supervisor={SUPERVISOR} reviewOpen decisions={NO_DECISIONS} onToggle={onToggle} />);
    const dismiss = screen.getByRole("checkbox", { name: "Dismiss with my next review" });
    dismiss.focus();
    await userEvent.keyboard(" ");
    expect(onToggle).toHaveBeenCalledWith("dismissed", "CP-4-r0-source_domain_bias");
    await userEvent.click(screen.getByRole("checkbox", { name: "Make this one of my constraints" }));
    expect(onToggle).toHaveBeenCalledWith("adopted", "CP-4-r0-anti_pattern:ADD_CONSTRAINT");
  });
});
