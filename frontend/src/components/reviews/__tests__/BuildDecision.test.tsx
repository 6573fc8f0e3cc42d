import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client";
import type { EventOf } from "../../../api/events";
import { BuildDecision } from "../BuildDecision";
import { recordedEvent } from "./fixtures/reviewEvents";
import { acceptingSubmit, refusingSubmit } from "./helpers";

function setup(event: EventOf<"review_build"> = recordedEvent("build"), onSubmit = acceptingSubmit()) {
  const user = userEvent.setup();
  render(<BuildDecision event={event} onSubmit={onSubmit} />);
  const root = screen.getByTestId("review-build");
  const submit = () => user.click(within(root).getByRole("button", { name: "Apply decision" }));
  return { event, user, root, onSubmit, submit };
}

describe("BuildDecision", () => {
  it("shows the round, the graph size, the gaps and the negative knowledge", () => {
    const { event, root } = setup(recordedEvent("buildFinal"));
    expect(within(root).getByRole("heading", { name: `Round ${event.data.round + 1}: what next?` })).toBeInTheDocument();
    expect(root).toHaveTextContent(`The knowledge graph holds ${event.data.graph.nodes.length} claims and ${event.data.graph.edges.length} links.`);
    for (const gap of event.data.gaps) expect(within(root).getByText(gap)).toBeInTheDocument();
    expect(event.data.negative_knowledge.length).toBeGreaterThan(0);
    for (const k of event.data.negative_knowledge) expect(within(root).getAllByText(k.claim_text).length).toBeGreaterThan(0);
  });

  it("requires a decision", async () => {
    const { root, onSubmit, submit } = setup();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Choose what to do next.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends a plain resolve or continue", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: /resolve/i }));
    await submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ type: "build_decision", decision: "resolve" });
    await user.click(within(root).getByRole("radio", { name: /continue/i }));
    await submit();
    expect(onSubmit).toHaveBeenLastCalledWith({ type: "build_decision", decision: "continue" });
  });

  it("continue is disabled when max rounds are reached, and says why", () => {
    const { event, root } = setup(recordedEvent("buildFinal"));
    expect(event.data.max_rounds_reached).toBe(true);
    const continueRadio = within(root).getByRole("radio", { name: /continue/i });
    expect(continueRadio).toBeDisabled();
    expect(continueRadio).toHaveAccessibleDescription(/last allowed round/i);
    expect(within(root).getByRole("radio", { name: /deep dive/i })).toBeDisabled(); // also starts a new round
    expect(within(root).getByRole("radio", { name: /resolve/i })).toBeEnabled();
    expect(within(root).getByRole("radio", { name: /add an insight/i })).toBeEnabled();
  });

  it("continue is available before the last round", () => {
    const { root } = setup();
    expect(within(root).getByRole("radio", { name: /continue/i })).toBeEnabled();
  });

  it("deep_dive asks for a claim of the graph, labelled by its text", async () => {
    const { event, root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: /deep dive/i }));
    const select = within(root).getByRole("combobox", { name: /claim to deep-dive into/i });
    const values = within(select)
      .getAllByRole("option")
      .map((o) => o.getAttribute("value"));
    expect(values).toEqual(["", ...event.data.graph.nodes.map((n) => n.id)]);
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Choose the claim of the knowledge graph to deep-dive into.");

    const target = event.data.graph.nodes[1];
    if (!target) throw new Error("the recording has two graph nodes");
    expect(within(select).getByRole("option", { name: new RegExp(`^${target.label.slice(0, 30)}`) })).toBeInTheDocument();
    await user.selectOptions(select, target.id);
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({ type: "build_decision", decision: "deep_dive", deep_dive_claim_id: target.id });
  });

  it("add_insight requires the insight text", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: /add an insight/i }));
    expect(within(root).getByLabelText(/your insight/i)).toBeRequired();
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("Write the insight to add to the knowledge graph.");
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("add_insight rejects a non-http evidence URL", async () => {
    const { root, onSubmit, submit, user } = setup();
    await user.click(within(root).getByRole("radio", { name: /add an insight/i }));
    await user.type(within(root).getByLabelText(/your insight/i), "Night shifts have a different bottleneck.");
    const urls = within(root).getByLabelText(/evidence urls/i);
    await user.type(urls, "https://example.org/night-study{Enter}");
    await user.type(urls, "file:///etc/passwd{Enter}");
    await submit();
    expect(within(root).getByRole("alert")).toHaveTextContent("“file:///etc/passwd” is not a web address");
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(within(root).getByRole("button", { name: "Remove “file:///etc/passwd”" }));
    await submit();
    expect(onSubmit).toHaveBeenCalledWith({
      type: "build_decision",
      decision: "add_insight",
      user_insight: "Night shifts have a different bottleneck.",
      user_evidence_urls: ["https://example.org/night-study"],
    });
  });

  it("shows the API's error and keeps the edits when the submit is refused", async () => {
    const detail = "Round 5 was the last allowed round: resolve the session instead.";
    const { root, submit, user } = setup(recordedEvent("build"), refusingSubmit(new ApiError(422, detail)));
    await user.click(within(root).getByRole("radio", { name: /add an insight/i }));
    await user.type(within(root).getByLabelText(/your insight/i), "Mornings matter more.");
    await submit();
    const alert = await within(root).findByRole("alert");
    expect(alert).toHaveTextContent(detail);
    expect(alert.parentElement).toHaveFocus();
    expect(within(root).getByRole("radio", { name: /add an insight/i })).toBeChecked();
    expect(within(root).getByLabelText(/your insight/i)).toHaveValue("Mornings matter more.");
  });

  it("shows the submit as busy and locks the form while the review is sent", async () => {
    let release: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { root, submit, user } = setup(recordedEvent("build"), acceptingSubmit().mockReturnValue(pending));
    await user.click(within(root).getByRole("radio", { name: /resolve/i }));
    await submit();
    const button = within(root).getByRole("button", { name: "Apply decision" });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(within(root).getByRole("radio", { name: /continue/i })).toBeDisabled();
    release();
    await expect.poll(() => within(root).getByRole("button", { name: "Apply decision" })).toBeEnabled();
  });

  describe("curiosity: thin regions offered as the next round's direction", () => {
    const items = [
      {
        id: "kg:7",
        source: "session_graph" as const,
        node_id: "7",
        node_text: "Fast track for minor cases",
        question: "What else bears on “Fast track for minor cases”? In the session's knowledge graph it connects to only 1 other node.",
        relevance: 0.41,
        neighbours: 1,
      },
      {
        id: "hkg:term:queue",
        source: "hkg" as const,
        node_id: "term:queue",
        node_text: "queue",
        question: "What else bears on “queue”? In the knowledge hypergraph it connects to nothing else.",
        relevance: 0.35,
        neighbours: 0,
      },
    ];
    function withCuriosity(base = recordedEvent("build")): EventOf<"review_build"> {
      return { ...base, data: { ...base.data, curiosity: items } };
    }

    it("lists each item with its question, the node, where it was found and its links", () => {
      const { root } = setup(withCuriosity());
      const picker = within(root).getByTestId("curiosity-picker");
      expect(within(picker).getByRole("radio", { name: /no direction/i })).toBeChecked();
      for (const item of items) expect(within(picker).getByRole("radio", { name: item.question })).toBeEnabled();
      expect(picker).toHaveTextContent("session graph");
      expect(picker).toHaveTextContent("knowledge hypergraph");
      expect(picker).toHaveTextContent("1 link");
      expect(picker).toHaveTextContent("0 links");
    });

    it("a picked item goes with continue as curiosity_id", async () => {
      const { root, onSubmit, submit, user } = setup(withCuriosity());
      await user.click(within(root).getByRole("radio", { name: items[1]!.question }));
      await user.click(within(root).getByRole("radio", { name: /continue/i }));
      await submit();
      expect(onSubmit).toHaveBeenLastCalledWith({ type: "build_decision", decision: "continue", curiosity_id: "hkg:term:queue" });
    });

    it("a picked item is not sent with resolve, and the form says a direction needs a new round", async () => {
      const { root, onSubmit, submit, user } = setup(withCuriosity());
      await user.click(within(root).getByRole("radio", { name: items[0]!.question }));
      await user.click(within(root).getByRole("radio", { name: /resolve/i }));
      expect(root).toHaveTextContent("A direction applies to a new round");
      await submit();
      expect(onSubmit).toHaveBeenLastCalledWith({ type: "build_decision", decision: "resolve" });
    });

    it("at the last round the items cannot be picked", () => {
      const { root } = setup(withCuriosity(recordedEvent("buildFinal")));
      expect(within(root).getByRole("radio", { name: items[0]!.question })).toBeDisabled();
    });

    it("with no item the review says the walk found no thin region", () => {
      const { root } = setup();
      expect(root).toHaveTextContent("The walk found no thin region");
    });
  });
});
