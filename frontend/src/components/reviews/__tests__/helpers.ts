/** Shared test helpers for the review screens (cleanup after each test is registered in src/test/setup.ts). */
import { vi } from "vitest";
import type { UserInput } from "../../../api/client";

/** An onSubmit that accepts every review. */
export function acceptingSubmit() {
  return vi.fn<(input: UserInput) => Promise<void>>().mockResolvedValue(undefined);
}

/** An onSubmit that refuses every review with `error` (e.g. an ApiError carrying the API's detail). */
export function refusingSubmit(error: Error) {
  return vi.fn<(input: UserInput) => Promise<void>>().mockRejectedValue(error);
}
