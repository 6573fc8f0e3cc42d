import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HyperpathChain, HypothesisLineage, SearchLineagePanel, SearchRoundSummary } from "../HypothesisLineage";
import type { SearchView } from "../hypothesisLineage";
import { TRACE, hypothesis } from "./fixtures/lineageFixtures";
import { ClaimsReview } from "../ClaimsReview";
import { recordedEvent } from "./fixtures/reviewEvents";

afterEach(() => vi.unstubAllGlobals());

const CHILD = hypothesis("search-0-4-hyperpath_expand", "hyperpath_expand", ["biso-0-q-1"], { hyperpath: TRACE, structural_grounding: 7.1 });
const PARENT = hypothesis("biso-0-q-1", "biso");

describe("HyperpathChain", () => {
  it("shows the path as nodes and relations with hyperedge ids, the mechanism chain and provenance references", () => {
    render(<HyperpathChain trace={TRACE} />);
    const items = within(screen.getByRole("list", { name: "Hyperpath" })).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual(["buffer", "—mechanism [e1]→: buffers delay the surge", "delay, grow", "—cued_by [e2]→", "queue"]);
    expect(within(screen.getByRole("list", { name: "Mechanism chain" })).getByText(/buffers delay the surge/)).toBeInTheDocument();
    expect(screen.getByText("Provenance: source_domains.json#control/structures/0")).toBeInTheDocument();
  });

  it("says there is no structural evidence when no path was found", () => {
    render(<HyperpathChain trace={{ ...TRACE, paths: [], chain: [], provenance: [] }} />);
    expect(screen.getByText(/no structural evidence/)).toBeInTheDocument();
    expect(screen.queryByText(/work limit/)).not.toBeInTheDocument();
  });

  it("says when the path search stopped at its work limit, with paths found or none", () => {
    const { unmount } = render(<HyperpathChain trace={{ ...TRACE, extent: "work_bound" }} />);
    expect(screen.getByRole("list", { name: "Hyperpath" })).toBeInTheDocument();
    expect(screen.getByText(/stopped at its work limit: shorter or other hyperpaths may exist/)).toBeInTheDocument();
    unmount();
    render(<HyperpathChain trace={{ ...TRACE, extent: "work_bound", paths: [], chain: [], provenance: [] }} />);
    expect(screen.getByText(/no structural evidence/)).toBeInTheDocument();
    expect(screen.getByText(/stopped at its work limit/)).toBeInTheDocument();
  });
});

describe("HypothesisLineage", () => {
  it("names the operator, the parents with their operator, and the grounding", () => {
    render(<HypothesisLineage hypothesis={CHILD} pool={new Map([PARENT, CHILD].map((h) => [h.id, h]))} />);
    expect(screen.getByText("Hyperpath expand (HKG)")).toBeInTheDocument();
    const lineage = screen.getByRole("list", { name: `Lineage of ${CHILD.title}` });
    expect(lineage).toHaveTextContent("parent: Title biso-0-q-1 · Cross-domain analogy (BISO)");
    expect(screen.getByText("grounding 7.10 / 10")).toBeInTheDocument();
  });
});

const SEARCH: SearchView = {
  round: 0, profile: "research", method: "mome", seeds: ["biso-0-q-1"], eligible: 3, calls: 5, children: 3,
  operators: { hyperpath_expand: 1, refine: 2 }, degraded: 0, skipped: 0, failed: 0, coverage_ratio: 0.5, ungrounded: 0,
  concept_space: "Healthcare operations", depth: 1, stalled: false,
  transforms: [
    {
      proposal_id: "transform-0-9", parent: "biso-0-q-1", space_id: "healthcare_operations", space_origin: "shipped", status: "rejected",
      proposal: { op: "relax_threshold", target_id: "hc:1", before: "no patient unassessed", after: "some wait longer", rationale: "r" },
      reasons: ["hc:1 is a hard constraint: it may never be transformed"], logic: null,
    },
  ],
};

describe("SearchRoundSummary", () => {
  it("shows the totals, the operators and each Transform Gate decision with its reasons", () => {
    render(<SearchRoundSummary search={SEARCH} />);
    expect(screen.getByText(/3 new hypotheses from 1 seeds in 5 model calls/)).toBeInTheDocument();
    expect(screen.getByText("Operators: 2 refine, 1 hyperpath expand (hkg).")).toBeInTheDocument();
    const gate = within(screen.getByRole("list", { name: "Transform Gate" })).getByRole("listitem");
    expect(gate).toHaveTextContent("rejected");
    expect(gate).toHaveTextContent("it may never be transformed");
  });
});

describe("SearchLineagePanel", () => {
  it("fetches the pool only when opened and shows this round's search hypotheses with their lineage", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ items: [CHILD, PARENT], total: 2, limit: 200, offset: 0 }), { status: 200, headers: { "Content-Type": "application/json" } }));
    vi.stubGlobal("fetch", fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <SearchLineagePanel sessionId="s1" round={0} />
      </QueryClientProvider>,
    );
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByText(/How this round's hypotheses were made/));
    const section = await screen.findByRole("region", { name: CHILD.title });
    expect(within(section).getByRole("list", { name: "Hyperpath" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: PARENT.title })).not.toBeInTheDocument();
    const url = new URL((fetch.mock.calls[0] as unknown as [Request])[0].url);
    expect(url.pathname).toBe("/api/v1/sessions/s1/hypotheses");
  });
});

describe("ClaimsReview with a search", () => {
  it("shows the round's search summary, and the lineage panel when the session is known", () => {
    const base = recordedEvent("claims");
    const event = { ...base, data: { ...base.data, search: SEARCH } };
    const { unmount } = render(<ClaimsReview event={event} onSubmit={async () => {}} />);
    expect(screen.getByTestId("search-summary")).toBeInTheDocument();
    expect(screen.queryByText(/How this round's hypotheses were made/)).not.toBeInTheDocument();
    unmount();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ClaimsReview event={event} sessionId="s1" onSubmit={async () => {}} />
      </QueryClientProvider>,
    );
    expect(screen.getByText(/How this round's hypotheses were made/)).toBeInTheDocument();
  });
});
