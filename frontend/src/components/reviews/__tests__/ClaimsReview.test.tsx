import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client";
import { ClaimCard } from "../ClaimCard";
import { ClaimsReview } from "../ClaimsReview";
import { EvidenceList } from "../EvidenceList";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit, refusingSubmit } from "./helpers";

function setup(onSubmit = acceptingSubmit()) {
  const event = recordedEvent("claims");
  const user = userEvent.setup();
  render(<ClaimsReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-claims");
  const submit = () => user.click(within(root).getByRole("button", { name: "Send feedback and validate" }));
  return { event, user, root, onSubmit, submit };
}

function firstClaim(key: "claims" | "verdicts") {
  const claim = recordedEvent(key).data.claims[0];
  if (!claim) throw new Error("the recording has claims");
  return claim;
}

describe("ClaimsReview", () => {
  it("shows each claim with its thesis, antithesis, falsifiability and evidence", () => {
    const { event, root } = setup();
    for (const claim of event.data.claims) {
      const section = within(root).getByRole("region", { name: `Claim ${claim.index + 1}` });
      expect(within(section).getByText(claim.text)).toBeInTheDocument();
      expect(within(section).getByText(claim.thesis_text)).toBeInTheDocument();
      expect(within(section).getByText(claim.antithesis_text)).toBeInTheDocument();
      expect(within(section).getByText(claim.falsifiability_condition)).toBeInTheDocument();
      for (const e of claim.evidence) expect(within(section).getAllByText(e.title).length).toBeGreaterThan(0);
      expect(within(section).queryByText("Scores")).not.toBeInTheDocument(); // not scored before validation
    }
  });

  it("sends no feedback when none is written", async () => {
    const { onSubmit, submit } = setup();
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ type: "claims_review", claim_feedback: [] });
  });

  it("sends claim_feedback only for the claims that have some", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.type(within(root).getByLabelText("Feedback on claim 2"), "  Check the night shift first.  ");
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ type: "claims_review", claim_feedback: [{ claim_index: 1, feedback: "Check the night shift first." }] });
  });

  it("refuses feedback over 4000 characters", async () => {
    const { root, onSubmit, submit, user } = setup();
    const box = within(root).getByLabelText("Feedback on claim 1");
    await user.click(box);
    await user.paste("x".repeat(4001));
    expect(within(root).getByText("4001 / 4000")).toBeInTheDocument();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Feedback on claim 1 is 4001 characters long; shorten it to at most 4000.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the API's error and keeps the edits when the submit is refused", async () => {
    const { root, submit, user } = setup(refusingSubmit(new ApiError(409, "The session is not waiting for a review; got 'claims_review'.")));
    await user.type(within(root).getByLabelText("Feedback on claim 1"), "Too broad");
    await submit();
    expect(await within(root).findByRole("alert")).toHaveTextContent("The session is not waiting for a review; got 'claims_review'.");
    expect(within(root).getByLabelText("Feedback on claim 1")).toHaveValue("Too broad");
  });

  it("shows a plain Error's message too (e.g. a network failure)", async () => {
    const { root, submit } = setup(refusingSubmit(new Error("The server could not be reached.")));
    await submit();
    expect(await within(root).findByRole("alert")).toHaveTextContent("The server could not be reached.");
  });
});

describe("ClaimCard", () => {
  it("shows the four scores and their mean once the claim is scored", () => {
    const claim = firstClaim("verdicts");
    render(<ClaimCard claim={claim} />);
    expect(screen.getByText("Scores")).toBeInTheDocument();
    expect(screen.getByText(`mean ${claim.score_mean?.toFixed(2)}`)).toBeInTheDocument();
    const scores = screen.getByText("novelty").closest("div");
    expect(scores).toHaveTextContent(`novelty${claim.scores?.novelty.toFixed(2)}`);
  });

  it("renders its children below the claim", () => {
    render(
      <ClaimCard claim={firstClaim("claims")}>
        <button type="button">Pick me</button>
      </ClaimCard>,
    );
    expect(screen.getByRole("button", { name: "Pick me" })).toBeInTheDocument();
  });
});

describe("EvidenceList", () => {
  it("links http(s) sources and shows corpus ids as plain text, with the evidence type as a badge", () => {
    const [corpus, other] = firstClaim("claims").evidence;
    if (!corpus || !other) throw new Error("the recording has two pieces of evidence");
    const web = { ...other, source: "https://example.org/triage-study", evidence_type: "contradicting" as const };
    const sneaky = { ...other, id: "00000000-0000-4000-8000-00000000000a", title: "Sneaky", source: "javascript:alert(1)" };
    render(<EvidenceList evidence={[corpus, web, sneaky]} />);
    expect(screen.getByRole("link", { name: "https://example.org/triage-study" })).toHaveAttribute("href", "https://example.org/triage-study");
    expect(screen.getAllByRole("link")).toHaveLength(1);
    expect(screen.getByText(corpus.source)).toBeInTheDocument();
    expect(screen.getByText("javascript:alert(1)")).toBeInTheDocument();
    expect(screen.getByText("contradicting")).toBeInTheDocument();
    expect(screen.getByText(corpus.summary)).toBeInTheDocument();
  });

  it("says when there is no evidence", () => {
    render(<EvidenceList evidence={[]} />);
    expect(screen.getByText("No evidence yet.")).toBeInTheDocument();
  });
});
