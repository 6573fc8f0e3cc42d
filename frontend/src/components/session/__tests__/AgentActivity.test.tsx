import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applyEvents, EMPTY_TIMELINE } from "../../../session/sessionTimeline";
import { make } from "../../../test/sessionEvents";
import { AgentActivity } from "../AgentActivity";

const activity = applyEvents(EMPTY_TIMELINE, [
  make("phase_change", 1, { phase: "explore", round: 0 }),
  make("tool_call", 2, { tool: "research", input_preview: '{"query": "queue pooling"}' }),
  make("tool_result", 3, {
    tool: "research",
    summary: "2 result(s) for “queue pooling”",
    sources: [
      { source: "https://example.org/pooling", title: "Pooling queues" },
      { source: "corpus://queueing/littles-law", title: "Little's Law" },
    ],
  }),
  make("tool_error", 4, { tool: "create_synthesis", error_code: "ANTITHESIS_MISSING", message: "Claim 1 has no antithesis." }),
]).activity;

describe("AgentActivity", () => {
  it("lists a research result's sources, linking only web addresses", () => {
    render(<AgentActivity items={activity} working={false} />);
    const sources = screen.getByRole("list", { name: "Sources for research" });
    expect(within(sources).getByRole("link", { name: "Pooling queues" })).toHaveAttribute("href", "https://example.org/pooling");
    expect(within(sources).getByText("Little's Law")).toHaveAttribute("title", "corpus://queueing/littles-law");
    expect(within(sources).queryByRole("link", { name: "Little's Law" })).not.toBeInTheDocument();
  });

  it("explains a refused tool call's error code in plain words, with the rule's message", () => {
    render(<AgentActivity items={activity} working={false} />);
    const refused = screen.getByText("ANTITHESIS_MISSING").closest("div")!;
    expect(refused).toHaveTextContent("every claim needs its strongest counter-argument first");
    expect(refused).toHaveTextContent("Claim 1 has no antithesis.");
  });

  it("says what is happening when there is nothing to show yet", () => {
    const { rerender } = render(<AgentActivity items={[]} working />);
    expect(screen.getByText("Starting…")).toBeInTheDocument();
    rerender(<AgentActivity items={[]} working={false} />);
    expect(screen.getByText("Nothing has happened in this session yet.")).toBeInTheDocument();
  });
});
