import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RememberedHypothesis } from "../../memory/describeMemory";
import { rememberedTriage } from "../../memory/__tests__/fixtures";
import { MemoryPage } from "../MemoryPage";

const TRIAGE = rememberedTriage();

/** A fake memory API: answers with `items` whose text contains the query, and records each query. */
function installApi(items: RememberedHypothesis[]) {
  const queries: URLSearchParams[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://forge.test");
      queries.push(url.searchParams);
      const q = url.searchParams.get("q")?.toLowerCase() ?? "";
      const found = items.filter((h) => h.text.toLowerCase().includes(q));
      const body = { items: found, total: found.length, limit: Number(url.searchParams.get("limit")), offset: 0 };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return queries;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MemoryPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("MemoryPage", () => {
  it("lists each remembered hypothesis with its C, its C history (each change with its session) and its sessions", async () => {
    installApi([TRIAGE]);
    renderPage();
    const item = await screen.findByTestId("memory-item");
    expect(within(item).getByText(TRIAGE.text)).toBeInTheDocument();
    expect(within(item).getByText("C 43%")).toBeInTheDocument();
    expect(within(item).getByRole("img", { name: "Confidence over time: 30% → 37% → 43%" })).toBeInTheDocument();
    expect(within(item).getByText("Supported 2 times, contradicted 0 times")).toBeInTheDocument();
    expect(within(item).getAllByText(/Supported \(accepted\), C 30% → 37%/)).toHaveLength(1);
    const change = within(item).getByText(/Supported \(accepted\), C 37% → 43%/);
    expect(within(change).getByRole("link", { name: "How can a clinic cut patient waits?" })).toHaveAttribute("href", "/sessions/s2");
    const links = within(item).getAllByRole("link");
    // each change names the session it happened in; then the sessions the hypothesis has been in
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["/sessions/s1", "/sessions/s2", "/sessions/s1", "/sessions/s2"]);
  });

  it("searches by the typed text and says when nothing matches", async () => {
    const queries = installApi([TRIAGE]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId("memory-item");
    await user.type(screen.getByRole("searchbox", { name: "Search by words and meaning" }), "bees");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(await screen.findByText("No remembered hypothesis matches that search.")).toBeInTheDocument();
    expect(queries.at(-1)?.get("q")).toBe("bees");
    expect(queries.at(-1)?.get("min_c")).toBe("0.2");
  });

  it("shows refuted hypotheses too when asked", async () => {
    const queries = installApi([]);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText(/Nothing remembered yet/)).toBeInTheDocument();
    await user.selectOptions(screen.getByRole("combobox", { name: "Show" }), "0");
    await waitFor(() => expect(queries.at(-1)?.get("min_c")).toBe("0"));
  });
});
