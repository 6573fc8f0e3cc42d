import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ApiNode } from "../../../graph/toFlowElements";
import { recordedEvent } from "../../reviews/__tests__/fixtures/reviewEvents";
import { ClaimDetail } from "../ClaimDetail";

function claimAndNode() {
  const claim = recordedEvent("verdicts").data.claims[0]!;
  const node: ApiNode = {
    id: claim.id, type: "claim", label: claim.text.slice(0, 40), claim_type: claim.claim_type,
    status: "validated", confidence: "grounded", round: 0, score: 0.82,
  };
  return { claim, node };
}

describe("ClaimDetail", () => {
  it("shows the claim in full with the graph's current status, not the review's older one", () => {
    const { claim, node } = claimAndNode();
    expect(claim.status).toBe("proposed");
    render(<ClaimDetail node={node} claim={claim} onClose={() => {}} />);
    const detail = screen.getByTestId("claim-detail");
    expect(within(detail).getByText("validated")).toBeInTheDocument();
    expect(within(detail).getByText("grounded")).toBeInTheDocument();
    expect(within(detail).queryByText("proposed")).not.toBeInTheDocument();
    expect(within(detail).getByText(claim.text)).toBeInTheDocument();
    expect(within(detail).getByRole("heading", { name: /^Evidence/ })).toBeInTheDocument();
  });

  it("without a review's copy of the claim shows what the graph node knows, and closes", async () => {
    const { node } = claimAndNode();
    const onClose = vi.fn();
    render(<ClaimDetail node={node} claim={undefined} onClose={onClose} />);
    expect(screen.getByText(node.label)).toBeInTheDocument();
    expect(screen.getByText("score 0.82")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close claim details" }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
