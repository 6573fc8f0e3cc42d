/**
 * Shared test helpers. Importing this registers Testing Library's cleanup after each test
 * (vitest runs without globals here, so it is not registered automatically).
 */
import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import type { UserInput } from "../../../api/client";

afterEach(cleanup);

/** An onSubmit that accepts every review. */
export function acceptingSubmit() {
  return vi.fn<(input: UserInput) => Promise<void>>().mockResolvedValue(undefined);
}

/** An onSubmit that refuses every review with `error` (e.g. an ApiError carrying the API's detail). */
export function refusingSubmit(error: Error) {
  return vi.fn<(input: UserInput) => Promise<void>>().mockRejectedValue(error);
}
