import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DecomposeReview } from "../DecomposeReview";
import { i18n } from "../../../i18n/i18n";
import { MAX_RELAXED_CHARS } from "../validateReviews";
import type { DecomposePayload } from "../reviewTypes";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit } from "./helpers";

const STAFF = "no more than 2 extra staff";
const COVER = "at least 5 extra staff on every shift";
const MESSAGE = `“${STAFF}” and “${COVER}” conflict: no value is at most 2 and at least 5; keep one or reword them.`;
const CONFLICT: NonNullable<DecomposePayload["constraint_conflicts"]>[number] = {
  indices: [0, 1],
  constraints: [STAFF, COVER],
  message: MESSAGE,
  resolve: "API wording, not shown",
};

function setup(conflicts = [CONFLICT]) {
  const recorded = recordedEvent("decompose");
  const constraints = [
    { index: 0, text: STAFF, kind: "hard" },
    { index: 1, text: COVER, kind: "hard" },
  ];
  const event = { ...recorded, data: { ...recorded.data, constraints, constraint_conflicts: conflicts } };
  const onSubmit = acceptingSubmit();
  const user = userEvent.setup();
  render(<DecomposeReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-decompose");
  const submit = async () => {
    await user.click(within(root).getAllByRole("checkbox")[0]!); // a reframing, which every review needs
    await user.click(within(root).getByRole("button", { name: "Confirm and explore" }));
  };
  return { root, user, onSubmit, submit };
}

describe("DecomposeReview: a CP-1 conflict between the person's constraints", () => {
  it("explains the conflict and offers keep / drop / relax for each of its constraints", () => {
    const { root } = setup();
    const section = within(root).getByRole("heading", { name: "Your constraints conflict" }).closest("section")!;
    expect(section).toHaveTextContent("No answer can meet all of these constraints together");
    expect(within(section).getByText(MESSAGE)).toBeInTheDocument();
    expect(section).not.toHaveTextContent("API wording");
    const first = within(section).getByRole("group", { name: `Constraint 1: ${STAFF}` });
    expect(within(first).getByRole("radio", { name: "Keep constraint 1" })).toBeChecked();
    expect(within(section).getAllByRole("radio")).toHaveLength(6);
  });

  it("refuses to submit while neither constraint is dropped or relaxed", async () => {
    const { root, onSubmit, submit } = setup();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Constraints 1 and 2 cannot both be met: drop or relax one of them.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the dropped constraint as constraint_changes", async () => {
    const { root, user, onSubmit, submit } = setup();
    await user.click(within(root).getByRole("radio", { name: "Drop constraint 2" }));
    await submit();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ type: "decompose_review", constraint_changes: [{ index: 1 }] });
  });

  it("relaxes a constraint from the keyboard and sends its looser wording", async () => {
    const { root, user, onSubmit, submit } = setup();
    const relax = within(root).getByRole("radio", { name: "Relax constraint 1" });
    relax.focus();
    await user.keyboard(" ");
    expect(relax).toBeChecked();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Write the looser wording for constraint 1, or drop it instead.");
    const field = within(root).getByRole("textbox", { name: "Looser wording for constraint 1" });
    await user.type(field, "  no more than 5 extra staff  ");
    await user.click(within(root).getByRole("button", { name: "Confirm and explore" }));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ constraint_changes: [{ index: 0, relaxed_to: "no more than 5 extra staff" }] });
  });

  it("refuses a looser wording longer than the server takes", async () => {
    const { root, user, onSubmit, submit } = setup();
    await user.click(within(root).getByRole("radio", { name: "Relax constraint 2" }));
    const field = within(root).getByRole("textbox", { name: "Looser wording for constraint 2" });
    await user.click(field);
    await user.paste("x".repeat(MAX_RELAXED_CHARS + 1));
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent(`shorten it to ${MAX_RELAXED_CHARS}`);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("going back to keep takes the change out of the review", async () => {
    const { root, user, onSubmit, submit } = setup();
    await user.click(within(root).getByRole("radio", { name: "Relax constraint 1" }));
    await user.type(within(root).getByRole("textbox", { name: "Looser wording for constraint 1" }), "at most 3");
    await user.click(within(root).getByRole("radio", { name: "Keep constraint 1" }));
    expect(within(root).queryByRole("textbox", { name: "Looser wording for constraint 1" })).toBeNull();
    await user.click(within(root).getByRole("radio", { name: "Drop constraint 2" }));
    await submit();
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ constraint_changes: [{ index: 1 }] });
  });

  it("without a conflict there is no section and the review sends no constraint_changes", async () => {
    const { root, onSubmit, submit } = setup([]);
    expect(within(root).queryByText("Your constraints conflict")).toBeNull();
    await submit();
    expect(onSubmit.mock.calls[0]![0]).not.toHaveProperty("constraint_changes");
  });

  it.each([
    ["zh", "你的约束相互冲突", "放宽 约束 1"],
    ["ja", "制約どうしが矛盾しています", "緩める 制約 1"],
  ] as const)("says it in %s too", async (language, title, relax) => {
    await i18n.changeLanguage(language);
    const { root } = setup();
    expect(within(root).getByRole("heading", { name: title })).toBeInTheDocument();
    expect(within(root).getByRole("radio", { name: relax })).not.toBeChecked();
  });
});
