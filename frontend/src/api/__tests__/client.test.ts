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
