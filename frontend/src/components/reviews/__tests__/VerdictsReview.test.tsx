import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client";
import type { EventOf } from "../../../api/events";
import { VerdictsReview } from "../VerdictsReview";
import { recordedEvent, verdictsWithThreeClaims } from "./fixtures/reviewEvents";
import { acceptingSubmit, refusingSubmit } from "./helpers";

function setup(event: EventOf<"review_verdicts"> = recordedEvent("verdicts"), onSubmit = acceptingSubmit()) {
  const user = userEvent.setup();
  render(<VerdictsReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-verdicts");
  const submit = () => user.click(within(root).getByRole("button", { name: "Record verdicts" }));
  return { event, user, root, onSubmit, submit };
}

describe("VerdictsReview", () => {
  it("preselects nothing: every claim needs a verdict", async () => {
    const { root, onSubmit, submit, user } = setup();
    for (const radio of within(root).getAllByRole("radio")) expect(radio).not.toBeChecked();
    await user.click(within(root).getByRole("radio", { name: "Accept claim 1" }));
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Choose a verdict for claim 2.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows each claim's scores", () => {
    const { event, root } = setup();
    for (const claim of event.data.claims) {
      const section = within(root).getByRole("region", { name: `Claim ${claim.index + 1}` });
      expect(within(section).getByText(`mean ${claim.score_mean?.toFixed(2)}`)).toBeInTheDocument();
    }
  });

  it("sends exactly one verdict per claim", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: "Reject claim 1" }));
    await user.click(within(root).getByRole("radio", { name: "Accept claim 1" })); // changed mind
    await user.type(within(root).getByLabelText("Reason for claim 1 (optional)"), "Holds in the data");
    await user.click(within(root).getByRole("radio", { name: "Reject claim 2" }));
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      type: "verdicts",
      verdicts: [
        { claim_index: 0, verdict: "accept", reason: "Holds in the data" },
        { claim_index: 1, verdict: "reject" },
      ],
    });
  });

  it("qualify requires a qualification", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: "Accept claim 1" }));
    expect(within(root).queryByLabelText(/Qualification for claim 2/)).not.toBeInTheDocument();
    await user.click(within(root).getByRole("radio", { name: "Qualify claim 2" }));
    const qualification = within(root).getByLabelText(/Qualification for claim 2/);
    expect(qualification).toBeRequired();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Claim 2 is qualified: write the qualification");
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(qualification, "Only at peak hours");
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      type: "verdicts",
      verdicts: [
        { claim_index: 0, verdict: "accept" },
        { claim_index: 1, verdict: "qualify", qualification: "Only at peak hours" },
      ],
    });
  });

  it("merge offers only the other claims", async () => {
    const { event, root, onSubmit, submit, user } = setup(verdictsWithThreeClaims());
    await user.click(within(root).getByRole("radio", { name: "Merge claim 2" }));
    const select = within(root).getByRole("combobox", { name: /Merge claim 2 with/ });
    const options = within(select).getAllByRole("option");
    expect(options.map((o) => o.getAttribute("value"))).toEqual(["", "0", "2"]);
    expect(options[2]).toHaveTextContent(/^Claim 3: Pooling triage nurses/);
    expect(within(select).queryByRole("option", { name: /^Claim 2:/ })).not.toBeInTheDocument();

    await user.click(within(root).getByRole("radio", { name: "Accept claim 1" }));
    await user.click(within(root).getByRole("radio", { name: "Accept claim 3" }));
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Claim 2 is merged: choose another claim of this round to merge it with.");

    await user.selectOptions(select, "2");
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      type: "verdicts",
      verdicts: [
        { claim_index: 0, verdict: "accept" },
        { claim_index: 1, verdict: "merge", merge_with_index: 2 },
        { claim_index: 2, verdict: "accept" },
      ],
    });
    expect(event.data.claims).toHaveLength(3);
  });

  it("cannot merge when the round has a single claim", () => {
    const event = recordedEvent("verdicts");
    event.data.claims = event.data.claims.slice(0, 1);
    const { root } = setup(event);
    expect(within(root).getByRole("radio", { name: "Merge claim 1" })).toBeDisabled();
  });

  it("is operable from the keyboard", async () => {
    const { root, onSubmit, user } = setup();
    within(root).getByRole("radio", { name: "Accept claim 1" }).focus();
    await user.keyboard(" ");
    within(root).getByRole("radio", { name: "Accept claim 2" }).focus();
    await user.keyboard("{ArrowDown}"); // moves to and checks "Reject claim 2"
    within(root).getByRole("button", { name: "Record verdicts" }).focus();
    await user.keyboard("{Enter}");
    expect(onSubmit).toHaveBeenCalledWith({
      type: "verdicts",
      verdicts: [
        { claim_index: 0, verdict: "accept" },
        { claim_index: 1, verdict: "reject" },
      ],
    });
  });

  it("shows the API's error and keeps the edits when the submit is refused", async () => {
    const detail = "verdicts must give exactly one verdict per claim index 0..1; missing [1].";
    const { root, submit, user } = setup(recordedEvent("verdicts"), refusingSubmit(new ApiError(422, detail)));
    await user.click(within(root).getByRole("radio", { name: "Accept claim 1" }));
    await user.click(within(root).getByRole("radio", { name: "Qualify claim 2" }));
    await user.type(within(root).getByLabelText(/Qualification for claim 2/), "Weekdays only");
    await submit();
    expect(await within(root).findByRole("alert")).toHaveTextContent(detail);
    expect(within(root).getByRole("radio", { name: "Accept claim 1" })).toBeChecked();
    expect(within(root).getByLabelText(/Qualification for claim 2/)).toHaveValue("Weekdays only");
  });
});

describe("VerdictsReview: how VALIDATE acted on the person's claim feedback", () => {
  function withFeedback(change: { feedback_response: string; revised_from?: string }) {
    const recorded = recordedEvent("verdicts");
    const [first, ...rest] = recorded.data.claims;
    const claim = { ...first!, user_feedback: "Only at peak hours?", ...change };
    return { ...recorded, data: { ...recorded.data, claims: [claim, ...rest] } };
  }

  it("shows a revision beside the feedback, with the text before it", () => {
    const { root } = setup(withFeedback({ feedback_response: "Narrowed to peak hours.", revised_from: "Pooling cuts waits" }));
    const section = within(root).getByRole("region", { name: "Claim 1" });
    expect(section).toHaveTextContent("Your feedbackOnly at peak hours?");
    expect(section).toHaveTextContent("Revised for your feedbackNarrowed to peak hours.");
    expect(section).toHaveTextContent("Before the revisionPooling cuts waits");
  });

  it("shows the answer when the claim was kept as it stood", () => {
    const { root } = setup(withFeedback({ feedback_response: "Kept: the data covers every hour." }));
    const section = within(root).getByRole("region", { name: "Claim 1" });
    expect(section).toHaveTextContent("Answer to your feedbackKept: the data covers every hour.");
    expect(section).not.toHaveTextContent("Before the revision");
  });
});
