/**
 * The typed HTTP client, generated from the backend's OpenAPI (`make api-client` regenerates
 * `schema.d.ts`). Every call returns a value or throws an ApiError whose message is the API's
 * own `detail` — the text that says what to fix — so screens can show it verbatim.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";
import { i18n } from "../i18n/i18n";

export type Schemas = components["schemas"];
export type Session = Schemas["SessionResponse"];
export type SessionList = Schemas["SessionListResponse"];
export type UserInput = Schemas["UserInput"];

/**
 * The CSRF token of this browser login (from GET /api/v1/auth/me or the login), sent as
 * X-CSRF-Token with every state-changing request; null when auth is off or not logged in.
 */
let csrfToken: string | null = null;
let unauthorized: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called on any 401 (the login ended or expired): the app shows its login page again. */
export function onUnauthorized(listener: () => void): void {
  unauthorized = listener;
}

/** State-changing methods carry the CSRF token; reads never need it. */
export function needsCsrf(method: string | undefined): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes((method ?? "GET").toUpperCase());
}

function withCsrf(method: string | undefined, headers: Headers): Headers {
  if (csrfToken && needsCsrf(method)) headers.set("X-CSRF-Token", csrfToken);
  return headers;
}

function noticed(response: Response): Response {
  if (response.status === 401) unauthorized();
  return response;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

// Absolute base: openapi-fetch builds `Request` objects, which need one outside a browser (tests).
// `fetch` is looked up per call, not captured once, so a replaced global (tests) is honoured.
// A network failure becomes an ApiError with status 0, so callers tell "unreachable" from a refusal.
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  fetch: async (request: Request) => {
    withCsrf(request.method, request.headers);
    try {
      return noticed(await globalThis.fetch(request));
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") throw error;
      throw new ApiError(0, errorMessage(0, undefined));
    }
  },
});

/** The API's `detail` (or a readable fallback) from an error body. */
export function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === "object" && "detail" in body) {
    const detail = (body as { detail: unknown }).detail;
    if (typeof detail === "string" && detail.trim()) return detail;
  }
  if (status === 0) return i18n.t("apiError.unreachable");
  return i18n.t("apiError.status", { status });
}

/**
 * Whether trying again later can help: the server could not be reached (status 0, or a fetch that
 * threw) or failed on its side (5xx). A 4xx is the server's answer and is final.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return error instanceof TypeError;
}

/** Unwraps an openapi-fetch result: data, or an ApiError carrying the API's message. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, errorMessage(result.response.status, result.error));
  }
  return result.data as T;
}

/** fetch that turns a network failure into an ApiError with status 0. */
export async function fetchOrExplain(input: string, init?: RequestInit): Promise<Response> {
  const headers = withCsrf(init?.method, new Headers(init?.headers));
  try {
    return noticed(await fetch(input, { ...init, headers }));
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, errorMessage(0, undefined));
  }
}

/** Throws the API's message when a raw fetch response is not ok. */
export async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  throw new ApiError(response.status, errorMessage(response.status, body));
}
