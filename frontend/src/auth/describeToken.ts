/**
 * How a personal API token reads in the list: active or revoked, and when it was last used, in
 * words relative to now ("never", "just now", "5 minutes ago", "3 days ago").
 */
import type { Schemas } from "../api/client";
import { currentLanguage, i18n } from "../i18n/i18n";

export type Token = Schemas["TokenOut"];

export interface TokenRow {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly active: boolean;
  readonly status: string;
  readonly lastUsed: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function timeAgo(iso: string | null | undefined, now: Date): string {
  if (!iso) return i18n.t("tokens.never");
  const elapsed = now.getTime() - new Date(iso).getTime();
  if (elapsed < MINUTE) return i18n.t("when.justNow");
  const [size, unit] = elapsed < HOUR ? ([MINUTE, "minute"] as const) : elapsed < DAY ? ([HOUR, "hour"] as const) : ([DAY, "day"] as const);
  return new Intl.RelativeTimeFormat(currentLanguage(), { numeric: "always" }).format(-Math.floor(elapsed / size), unit);
}

export function describeToken(token: Token, now: Date): TokenRow {
  const active = !token.revoked_at;
  return {
    id: token.id,
    name: token.name,
    prefix: `${token.prefix}…`,
    active,
    status: active ? i18n.t("tokens.active") : i18n.t("tokens.revoked", { when: timeAgo(token.revoked_at, now) }),
    lastUsed: timeAgo(token.last_used_at, now),
  };
}

/** Active tokens first, newest first within each group. */
export function tokenRows(tokens: readonly Token[], now: Date): TokenRow[] {
  const order = [...tokens].sort(
    (a, b) => Number(Boolean(a.revoked_at)) - Number(Boolean(b.revoked_at)) || b.created_at.localeCompare(a.created_at),
  );
  return order.map((t) => describeToken(t, now));
}
