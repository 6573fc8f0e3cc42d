/**
 * What the app shows for the caller's identity (GET /api/v1/auth/me), as a pure decision:
 * - auth off (the embedded default): the app, with no login and no account menu;
 * - auth on and logged in: the app with the account menu (admins also get the users page);
 * - auth on and not logged in (401): the login page;
 * - anything else: an error that says what happened.
 */
import { ApiError, type Schemas } from "../api/client";
import { i18n } from "../i18n/i18n";

export type Me = Schemas["MeResponse"];

export type AuthView =
  | { readonly kind: "loading" }
  | { readonly kind: "login" }
  | { readonly kind: "app"; readonly me: Me; readonly showAccount: boolean }
  | { readonly kind: "error"; readonly message: string };

export interface MeQuery {
  readonly me: Me | undefined;
  readonly error: unknown;
  readonly pending: boolean;
}

/** A 401 wins over data from before (a failed refetch keeps the old data): the login has ended. */
export function authView({ me, error, pending }: MeQuery): AuthView {
  if (error instanceof ApiError && error.status === 401) return { kind: "login" };
  if (me) return { kind: "app", me, showAccount: me.auth_enabled };
  if (error) return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  return pending ? { kind: "loading" } : { kind: "login" };
}

export interface AccountLink {
  readonly to: string;
  readonly label: string;
}

/** The account menu's pages: everyone's tokens; the users page for admins only. */
export function accountLinks(me: Me): AccountLink[] {
  const links: AccountLink[] = [{ to: "/account/tokens", label: i18n.t("tokens.title") }];
  if (me.user.role === "admin" && !me.user.disabled) links.push({ to: "/admin/users", label: i18n.t("users.title") });
  return links;
}
