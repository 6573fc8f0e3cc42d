import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client";
import { ExploreReview } from "../ExploreReview";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit, refusingSubmit } from "./helpers";

function setup(onSubmit = acceptingSubmit()) {
  const event = recordedEvent("explore");
  const user = userEvent.setup();
  render(<ExploreReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-explore");
  const submit = () => user.click(within(root).getByRole("button", { name: "Continue to synthesis" }));
  return { event, user, root, onSubmit, submit };
}

describe("ExploreReview", () => {
  it("shows the morphological box as a table of parameters and options", () => {
    const { event, root } = setup();
    const table = within(root).getByRole("table");
    const box = event.data.morphological_box;
    for (const parameter of box) {
      const row = within(table).getByRole("rowheader", { name: parameter.name }).closest("tr");
      if (!row) throw new Error(`no row for ${parameter.name}`);
      expect(within(row).getAllByRole("cell").map((c) => c.textContent)).toEqual(parameter.options);
    }
    expect(within(table).getAllByRole("columnheader").map((c) => c.textContent)).toEqual(["Parameter", "Option 1", "Option 2", "Option 3", "Option 4"]);
  });

  it("shows each analogy's domain, distance, observable and failure mode", () => {
    const { event, root } = setup();
    for (const a of event.data.analogies) {
      const card = within(root).getByRole("article", { name: `Analogy ${a.index + 1}: ${a.source_domain}` });
      expect(within(card).getByText(`${a.semantic_distance} distance`)).toBeInTheDocument();
      expect(within(card).getByText(a.description)).toBeInTheDocument();
      if (a.observable) expect(within(card).getByText(a.observable)).toBeInTheDocument();
      if (a.failure_mode) expect(within(card).getByText(a.failure_mode)).toBeInTheDocument();
    }
  });

  it("says which pool hypothesis an analogy builds on and its mapping score", () => {
    const event = recordedEvent("explore");
    const [first, ...rest] = event.data.analogies;
    if (!first) throw new Error("the recorded explore review has no analogy");
    const promoted = { ...first, hypothesis_id: "biso-0-queueing-1", mapping_score: 7.46 };
    render(<ExploreReview event={{ ...event, data: { ...event.data, analogies: [promoted, ...rest] } }} onSubmit={acceptingSubmit()} />);
    const card = screen.getByRole("article", { name: `Analogy ${first.index + 1}: ${first.source_domain}` });
    expect(within(card).getByText("builds on pool hypothesis biso-0-queueing-1")).toBeInTheDocument();
    expect(within(card).getByText("mapping 7.5/10")).toBeInTheDocument();
  });

  it("shows the contradictions and the adjacent possible", () => {
    const { event, root } = setup();
    for (const c of event.data.contradictions) expect(within(root).getByText(c.description)).toBeInTheDocument();
    for (const a of event.data.adjacent) expect(within(root).getByText(a)).toBeInTheDocument();
  });

  it("requires starring at least one analogy", async () => {
    const { root, onSubmit, submit } = setup();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent(/star at least one analogy/i);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("stars and unstars analogies with a pressed toggle button", async () => {
    const { root, user } = setup();
    const star = within(root).getByRole("button", { name: "Star analogy 2 (Control theory)" });
    expect(star).toHaveAttribute("aria-pressed", "false");
    await user.click(star);
    expect(star).toHaveAttribute("aria-pressed", "true");
    await user.keyboard("{Enter}");
    expect(star).toHaveAttribute("aria-pressed", "false");
  });

  it("sends the starred analogies and suggested domains", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("button", { name: /^Star analogy 3/ }));
    await user.click(within(root).getByRole("button", { name: /^Star analogy 1/ }));
    await user.type(within(root).getByLabelText("Suggest a domain to draw analogies from"), "Air traffic control{Enter}");
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ type: "explore_review", starred_analogies: [0, 2], suggested_domains: ["Air traffic control"] });
  });

  it("shows the API's error and keeps the edits when the submit is refused", async () => {
    const { root, submit, user } = setup(refusingSubmit(new ApiError(422, "starred_analogies has out-of-range indices [7]; valid indices are 0..2.")));
    const star = within(root).getByRole("button", { name: /^Star analogy 1/ });
    await user.click(star);
    await submit();
    expect(await within(root).findByRole("alert")).toHaveTextContent("starred_analogies has out-of-range indices [7]; valid indices are 0..2.");
    expect(star).toHaveAttribute("aria-pressed", "true");
  });
});
