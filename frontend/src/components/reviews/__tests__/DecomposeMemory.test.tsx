import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DecomposeReview } from "../DecomposeReview";
import type { OfferedHypothesis } from "../../../memory/describeMemory";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit } from "./helpers";

function offered(id: string, text: string, c: number): OfferedHypothesis {
  return {
    episode_id: id,
    text,
    c,
    confidence_percent: Math.round(c * 100),
    similarity: 0.7,
    support_count: 2,
    contradiction_count: 1,
    origin_question: "How can a hospital cut emergency waits?",
    origin_session_id: "s1",
    decision: "offered",
    rationale: "",
  };
}

function setup(memory: OfferedHypothesis[]) {
  const recorded = recordedEvent("decompose");
  const event = { ...recorded, data: { ...recorded.data, memory } };
  const onSubmit = acceptingSubmit();
  const user = userEvent.setup();
  render(<DecomposeReview event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-decompose");
  return { root, user, onSubmit };
}

describe("DecomposeReview: what earlier sessions found", () => {
  it("shows each remembered hypothesis with its confidence, evidence and origin", () => {
    const { root } = setup([offered("a", "Triage at the door cuts waits", 0.43), offered("b", "More beds cut waits", 0.27)]);
    const section = within(root).getByRole("heading", { name: "What earlier sessions found" }).closest("section")!;
    const first = within(section).getByRole("group", { name: /Earlier finding 1: Triage at the door cuts waits/ });
    expect(first).toHaveTextContent("confidence 43%");
    expect(first).toHaveTextContent("Supported 2 times, contradicted 1 time");
    expect(first).toHaveTextContent("How can a hospital cut emergency waits?");
    expect(within(section).getAllByTestId("memory-offer")).toHaveLength(2);
  });

  it("sends the pinned and dismissed ids with the review", async () => {
    const { root, user, onSubmit } = setup([offered("a", "Triage at the door cuts waits", 0.43), offered("b", "More beds cut waits", 0.27)]);
    await user.click(within(root).getByRole("radio", { name: /Pin: use it in later phases earlier finding 1/ }));
    await user.click(within(root).getByRole("radio", { name: /Dismiss earlier finding 2/ }));
    await user.click(within(root).getAllByRole("checkbox")[0]!);
    await user.click(within(root).getByRole("button", { name: "Confirm and explore" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ accepted_memories: ["a"], dismissed_memories: ["b"] });
  });

  it("changing a choice back to leave-it sends neither list with that id", async () => {
    const { root, user, onSubmit } = setup([offered("a", "Triage at the door cuts waits", 0.43)]);
    await user.click(within(root).getByRole("radio", { name: /Pin: use it in later phases earlier finding 1/ }));
    await user.click(within(root).getByRole("radio", { name: /Leave it earlier finding 1/ }));
    await user.click(within(root).getAllByRole("checkbox")[0]!);
    await user.click(within(root).getByRole("button", { name: "Confirm and explore" }));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ accepted_memories: [], dismissed_memories: [] });
  });

  it("has no memory section when nothing was offered", () => {
    const { root } = setup([]);
    expect(within(root).queryByText("What earlier sessions found")).toBeNull();
  });
});
