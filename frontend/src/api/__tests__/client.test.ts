import { describe, expect, test } from "vitest";
import { ApiError, ensureOk, errorMessage } from "../client";

describe("errorMessage and ensureOk", () => {
  test("shows the API's one-sentence detail of a 422, not its per-field errors", async () => {
    const body = {
      detail: "problem: must be at least 10 characters.",
      errors: [{ loc: ["body", "problem"], msg: "String should have at least 10 characters", type: "string_too_short" }],
    };
    const response = new Response(JSON.stringify(body), { status: 422 });
    await expect(ensureOk(response)).rejects.toEqual(new ApiError(422, "problem: must be at least 10 characters."));
  });

  test("falls back to a readable sentence when the body has no usable detail", () => {
    expect(errorMessage(409, { detail: [{ msg: "x" }] })).toBe("The server answered 409.");
    expect(errorMessage(500, undefined)).toBe("The server answered 500.");
    expect(errorMessage(0, undefined)).toMatch(/could not be reached/);
  });
});

describe("CSRF header", () => {
  test("only state-changing methods carry it", async () => {
    const { needsCsrf } = await import("../client");
    expect(["GET", "head", "OPTIONS", undefined].map(needsCsrf)).toEqual([false, false, false, false]);
    expect(["POST", "delete", "PATCH", "PUT"].map(needsCsrf)).toEqual([true, true, true, true]);
  });

  test("is added to a POST after a login and never to a GET", async () => {
    const { fetchOrExplain, setCsrfToken } = await import("../client");
    const seen: Headers[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    try {
      setCsrfToken("t0ken");
      await fetchOrExplain("/api/v1/sessions/x/run", { method: "POST" });
      await fetchOrExplain("/api/v1/sessions/x/stream");
      setCsrfToken(null);
      await fetchOrExplain("/api/v1/sessions/x/run", { method: "POST" });
    } finally {
      globalThis.fetch = original;
    }
    expect(seen.map((h) => h.get("X-CSRF-Token"))).toEqual(["t0ken", null, null]);
  });
});
