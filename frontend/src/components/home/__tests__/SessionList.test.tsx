import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../../../api/client";
import { SessionList } from "../SessionList";

function session(i: number): Session {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    problem: `Problem number ${i}: how can we do better?\n\nConstraints:\n- budget`,
    statement: `Problem number ${i}: how can we do better?`,
    constraints: ["budget"],
    status: i % 2 ? "crystallized" : "awaiting_input",
    current_phase: "explore",
    current_phase_number: 2,
    current_round: 0,
    awaiting_input_type: i % 2 ? null : "explore_review",
    running: false,
    model: "offline model",
    total_tokens_used: 0,
    total_cost_usd: 0,
    created_at: "2026-11-22T10:00:00Z",
    resolved_at: null,
  };
}

/** A fake API holding `sessions`; records DELETEs, or refuses them with `deleteStatus`. */
function installApi(sessions: Session[], deleteStatus = 204) {
  const deleted: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(new URL(String(input), "http://forge.test")), init);
      const url = new URL(request.url);
      if (request.method === "DELETE") {
        if (deleteStatus >= 400) return new Response(JSON.stringify({ detail: "The session is running; cancel it first." }), { status: deleteStatus, headers: { "Content-Type": "application/json" } });
        const id = url.pathname.split("/").at(-1)!;
        deleted.push(id);
        sessions.splice(sessions.findIndex((s) => s.id === id), 1);
        return new Response(null, { status: 204 });
      }
      const limit = Number(url.searchParams.get("limit"));
      const offset = Number(url.searchParams.get("offset"));
      const body = { items: sessions.slice(offset, offset + limit), total: sessions.length, limit, offset };
      return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
    }),
  );
  return deleted;
}

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SessionList />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("SessionList", () => {
  it("shows each session's statement, status, phase and round, a page of ten at a time", async () => {
    installApi(Array.from({ length: 12 }, (_, i) => session(i + 1)));
    renderList();
    const rows = await screen.findAllByTestId("session-row");
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent("Problem number 1: how can we do better?");
    expect(rows[0]).not.toHaveTextContent("Constraints:");
    expect(within(rows[0]!).getByRole("link", { name: "Open" })).toBeInTheDocument();
    expect(within(rows[1]!).getByRole("link", { name: "Resume" })).toHaveAttribute("href", `/sessions/${session(2).id}`);
    expect(screen.getByText("1–10 of 12")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Newer" })).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Older" }));
    await waitFor(() => expect(screen.getByText("11–12 of 12")).toBeInTheDocument());
    expect(screen.getAllByTestId("session-row")).toHaveLength(2);
    expect(screen.getByRole("button", { name: "Older" })).toBeDisabled();
  });

  it("deletes only after confirmation, and keeping it sends nothing", async () => {
    const deleted = installApi([session(1), session(2)]);
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: /Delete session: Problem number 2/ }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("Delete “Problem number 2: how can we do better?”");
    await userEvent.click(screen.getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(deleted).toEqual([]);
    await userEvent.click(screen.getByRole("button", { name: /Delete session: Problem number 2/ }));
    await userEvent.click(screen.getByRole("button", { name: "Delete session" }));
    await waitFor(() => expect(screen.getAllByTestId("session-row")).toHaveLength(1));
    expect(deleted).toEqual([session(2).id]);
  });

  it("shows the API's reason when a delete is refused, and keeps the session", async () => {
    installApi([session(1)], 409);
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: /Delete session/ }));
    await userEvent.click(screen.getByRole("button", { name: "Delete session" }));
    expect(await screen.findByText(/cancel it first/)).toBeInTheDocument();
    expect(screen.getAllByTestId("session-row")).toHaveLength(1);
  });

  it("invites a first session when there are none", async () => {
    installApi([]);
    renderList();
    expect(await screen.findByText(/No sessions yet/)).toBeInTheDocument();
  });
});
