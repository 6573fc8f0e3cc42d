import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SelectionPlots } from "../SelectionPlots";

const PLOT = {
  points: [
    { id: "h1", title: "Buffer beds", domain_name: "Queueing", operator: "biso", novelty: 0.9, feasibility: 0.4, composite: 6, rank: 0, crowding: null, mechanism_family: "flow", data_granularity: "event", in_cell_front: true, seed: true },
    { id: "h2", title: "Pheromone board", domain_name: "Swarms", operator: "refine", novelty: 0.5, feasibility: 0.8, composite: 6.5, rank: 0, crowding: null, mechanism_family: "network", data_granularity: "group", in_cell_front: true, seed: false },
    { id: "h3", title: "Weak idea", domain_name: "Swarms", operator: "biso", novelty: 0.3, feasibility: 0.3, composite: 3, rank: 1, crowding: null, mechanism_family: "network", data_granularity: "group", in_cell_front: false, seed: false },
  ],
  pruned: 2,
  mechanism_families: ["flow", "network"],
  data_granularities: ["event", "group"],
  cells: [
    { mechanism_family: "flow", data_granularity: "event", explored: 1, kept: 1 },
    { mechanism_family: "flow", data_granularity: "group", explored: 0, kept: 0 },
    { mechanism_family: "network", data_granularity: "event", explored: 0, kept: 0 },
    { mechanism_family: "network", data_granularity: "group", explored: 2, kept: 1 },
  ],
  capacity: 3,
  coverage_ratio: 0.5,
};
const HYPOTHESES = {
  items: [{ id: "h2", title: "Pheromone board", domain_name: "Swarms", operator: "refine", parents: ["h9"], statement: "A live board steers triage nurses.", observable: "patients per hour" }],
  total: 1,
  limit: 200,
  offset: 0,
};

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;
}

afterEach(() => vi.unstubAllGlobals());

describe("SelectionPlots", () => {
  it("draws every point as a focusable button, the front filled, and opens a hypothesis by keyboard", async () => {
    vi.stubGlobal("fetch", async (request: Request) => json(request.url.includes("/selection") ? PLOT : HYPOTHESES));
    const user = userEvent.setup();
    render(<SelectionPlots sessionId="s1" />, { wrapper });
    const plot = await screen.findByTestId("pareto-plot");
    const points = within(plot).getAllByRole("button");
    expect(points).toHaveLength(3);
    expect(points[0]).toHaveAccessibleName("Buffer beds: novelty 0.90, feasibility 0.40, on the Pareto front, SEARCH seed");
    expect(points[2]).toHaveAccessibleName(/front 2/);
    expect(screen.getByText(/2 on the front of 3/)).toBeInTheDocument();
    points[1]!.focus();
    await user.keyboard("{Enter}");
    const detail = await screen.findByTestId("hypothesis-detail");
    expect(within(detail).getByText("A live board steers triage nurses.")).toBeInTheDocument();
    expect(detail).toHaveTextContent("Swarms · refine of h9");
  });

  it("shades the MOME grid by count and reports coverage", async () => {
    vi.stubGlobal("fetch", async (request: Request) => json(request.url.includes("/selection") ? PLOT : HYPOTHESES));
    render(<SelectionPlots sessionId="s1" />, { wrapper });
    const grid = await screen.findByTestId("mome-heatmap");
    expect(screen.getByText("MOME grid: coverage 50% of 4 cells")).toBeInTheDocument();
    expect(within(grid).getByText("1/2")).toBeInTheDocument();
    expect(within(grid).getAllByText(/\d\/\d/)).toHaveLength(2); // empty cells carry no label
  });
});
