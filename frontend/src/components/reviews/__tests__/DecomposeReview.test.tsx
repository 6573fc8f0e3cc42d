import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { UserInput } from "../../../api/client";
import { ApiError } from "../../../api/client";
import { DecomposeReview } from "../DecomposeReview";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit, refusingSubmit } from "./helpers";

function setup(onSubmit = acceptingSubmit()) {
  const event = recordedEvent("decompose");
  const user = userEvent.setup();
  render(<DecomposeReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-decompose");
  const submit = () => user.click(within(root).getByRole("button", { name: "Confirm and explore" }));
  return { event, user, root, onSubmit, submit };
}

describe("DecomposeReview", () => {
  it("shows the fundamentals, the state of the art and its source titles", () => {
    const { event, root } = setup();
    for (const f of event.data.fundamentals) expect(within(root).getByText(f)).toBeInTheDocument();
    const art = event.data.state_of_art;
    if (!art) throw new Error("the recording has a state of the art");
    expect(within(root).getByText(art.summary)).toBeInTheDocument();
    for (const source of art.evidence) expect(within(root).getAllByText(source.title).length).toBeGreaterThan(0);
    expect(within(root).getAllByText("corpus://queueing/littles-law").length).toBeGreaterThan(0);
  });

  it("requires selecting at least one reframing before submit", async () => {
    const { root, onSubmit, submit, user } = setup();
    await submit();
    const alert = within(root).getByRole("alert");
    expect(alert).toHaveTextContent(/at least one reframing/i);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(alert.parentElement).toHaveFocus();

    await user.click(within(root).getAllByRole("checkbox")[1]!);
    await submit();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("offers confirm / reject / no opinion for each assumption, one choice at a time", async () => {
    const { event, root, user } = setup();
    expect(within(root).getAllByRole("radio")).toHaveLength(event.data.assumptions.length * 3);
    const group = within(root).getByRole("group", { name: /^Assumption 1:/ });
    const confirm = within(group).getByRole("radio", { name: "Confirm assumption 1" });
    const reject = within(group).getByRole("radio", { name: "Reject assumption 1" });
    expect(within(group).getByRole("radio", { name: "No opinion assumption 1" })).toBeChecked();
    await user.click(confirm);
    await user.click(reject);
    expect(confirm).not.toBeChecked();
    expect(reject).toBeChecked();
  });

  it("allows adding custom assumptions and reframings, and sends the exact review", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: "Confirm assumption 1" }));
    await user.click(within(root).getByRole("radio", { name: "Reject assumption 3" }));
    await user.click(within(root).getByRole("radio", { name: "Confirm assumption 5" }));
    await user.type(within(root).getByLabelText("Add an assumption the agent missed"), "Patients arrive at random{Enter}");
    expect(within(root).getByText("Patients arrive at random")).toBeInTheDocument();
    await user.type(within(root).getByLabelText("Add your own reframing"), "Design the waiting room as a buffer{Enter}");
    await user.click(within(root).getByRole("checkbox", { name: /^Change the variable/ }));
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      type: "decompose_review",
      selected_reframings: [2],
      confirmed_assumptions: [0, 4],
      rejected_assumptions: [2],
      added_assumptions: ["Patients arrive at random"],
      added_reframings: ["Design the waiting room as a buffer"],
    } satisfies UserInput);
  });

  it("accepts an added reframing without selecting one", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.type(within(root).getByLabelText("Add your own reframing"), "Shift arrivals away from the peak");
    await user.click(within(root).getAllByRole("button", { name: "Add" })[1]!);
    await submit();
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ selected_reframings: [], added_reframings: ["Shift arrivals away from the peak"] }));
  });

  it("shows the API's error and keeps the edits when the submit is refused", async () => {
    const refuse = refusingSubmit(new ApiError(409, "The session is waiting for 'explore_review', not 'decompose_review'."));
    const { root, submit, user } = setup(refuse);
    const reframing = within(root).getAllByRole("checkbox")[0]!;
    await user.click(reframing);
    await user.click(within(root).getByRole("radio", { name: "Reject assumption 2" }));
    await submit();
    expect(await within(root).findByRole("alert")).toHaveTextContent("The session is waiting for 'explore_review', not 'decompose_review'.");
    expect(reframing).toBeChecked();
    expect(within(root).getByRole("radio", { name: "Reject assumption 2" })).toBeChecked();
    expect(within(root).getByRole("button", { name: "Confirm and explore" })).toBeEnabled();
  });

  it("disables every control while disabled", () => {
    render(<DecomposeReview event={recordedEvent("decompose")} onSubmit={vi.fn()} disabled />);
    const root = screen.getByTestId("review-decompose");
    for (const box of within(root).getAllByRole("checkbox")) expect(box).toBeDisabled();
    expect(within(root).getByRole("button", { name: "Confirm and explore" })).toBeDisabled();
  });
});
