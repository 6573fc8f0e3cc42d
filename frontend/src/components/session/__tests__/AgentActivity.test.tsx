import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { applyEvents, EMPTY_TIMELINE } from "../../../session/sessionTimeline";
import { make } from "../../../test/sessionEvents";
import { AgentActivity } from "../AgentActivity";

const activity = applyEvents(EMPTY_TIMELINE, [
  make("phase_change", 1, { phase: "explore", round: 0, resumed: false }),
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

  it("shows the reply being written last, as in progress, without an event id", () => {
    const { container } = render(<AgentActivity items={activity} working draft={"Looking at the queue\u2026"} />);
    const draft = container.querySelector('[data-kind="draft"]')!;
    expect(draft).toHaveTextContent("Looking at the queue…");
    expect(draft).toHaveAttribute("aria-busy", "true");
    expect(draft).not.toHaveAttribute("data-event-id");
    const entries = [...container.querySelectorAll("li[data-kind]")].map((li) => li.getAttribute("data-kind"));
    expect(entries.at(-1)).toBe("draft");
  });

  it("shows nothing for an empty draft, and the draft alone when nothing else happened yet", () => {
    const { container, rerender } = render(<AgentActivity items={activity} working draft={"  "} />);
    expect(container.querySelector('[data-kind="draft"]')).toBeNull();
    rerender(<AgentActivity items={[]} working draft="First words" />);
    expect(screen.getByText("First words")).toBeInTheDocument();
  });

  it("shows a resumed run as a small note, not as a new phase", () => {
    const items = applyEvents(EMPTY_TIMELINE, [
      make("phase_change", 1, { phase: "validate", round: 1, resumed: false }),
      make("phase_change", 2, { phase: "validate", round: 1, resumed: true }),
    ]).activity;
    const { container } = render(<AgentActivity items={items} working={false} />);
    expect(container.querySelector('[data-kind="resumed"]')).toHaveTextContent("Resumed · Validate · round 2");
    expect(container.querySelectorAll('[data-kind="phase"]')).toHaveLength(1);
  });
});
