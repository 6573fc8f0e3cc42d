import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import type { Session } from "../../api/client";
import { SessionPage } from "../SessionPage";

const SESSION: Session = {
  id: "s1",
  problem: "How can a clinic cut waiting times?",
  statement: "How can a clinic cut waiting times?",
  constraints: [],
  status: "decomposing",
  current_phase: "decompose",
  current_phase_number: 1,
  current_round: 0,
  awaiting_input_type: null,
  running: false,
  model: "offline model",
  total_tokens_used: 0,
  total_cost_usd: 0,
  created_at: "2026-11-22T10:00:00Z",
  resolved_at: null,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A fake API: the session answers `sessionAnswers` in turn (the last one repeats); the log is empty. */
function installApi(sessionAnswers: (() => Response)[]) {
  let calls = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(new URL(String(input), "http://forge.test")), init);
      const path = new URL(request.url).pathname;
      if (path.endsWith("/events")) return json({ events: [], next_after: 0, has_more: false });
      if (path.endsWith("/stream")) return new Response("", { status: 200, headers: { "Content-Type": "text/event-stream" } });
      const answer = sessionAnswers[Math.min(calls, sessionAnswers.length - 1)]!;
      calls += 1;
      return answer();
    }),
  );
}

function renderPage() {
  const client = new QueryClient();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={["/sessions/s1"]}>
        <Routes>
          <Route path="/sessions/:sessionId" element={<SessionPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("SessionPage", () => {
  test("a server that cannot be reached is retried, and the session opens once it answers", async () => {
    const down = () => {
      throw new TypeError("Failed to fetch");
    };
    installApi([down, down, () => json(SESSION)]);
    renderPage();
    expect(await screen.findByText("Cannot reach the server — retrying")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 1, name: SESSION.statement }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText(/could not be opened/)).not.toBeInTheDocument();
  });

  test("only the server's 404 says the session is not found", async () => {
    installApi([() => json({ detail: "Session not found" }, 404)]);
    renderPage();
    expect(await screen.findByRole("heading", { name: "Session not found" })).toBeInTheDocument();
  });

  test("another refusal is shown with the server's own words", async () => {
    installApi([() => json({ detail: "The session id is malformed." }, 422)]);
    renderPage();
    expect(await screen.findByText(/The session id is malformed\./)).toBeInTheDocument();
  });
});
