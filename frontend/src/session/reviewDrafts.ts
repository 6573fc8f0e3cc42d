/**
 * Unsent review drafts, kept in this browser per session and review so a reload (or a crash, or a
 * closed tab) never loses what the person typed. Pure over an injected `Storage`.
 *
 * Invariants:
 *   - A draft is stored under its session id and review event id: another review (the next round)
 *     starts empty; the same review after a reload starts where it was left.
 *   - Restoring never trusts the stored shape: only the fields of the screen's empty draft are
 *     taken, each only when its JSON kind (array, string, number, boolean, null) matches or the empty
 *     value is null; anything else keeps the empty value. A draft from an older screen degrades to
 *     the parts that still fit instead of breaking the screen.
 *   - A draft equal to the empty one is removed, not stored; a sent review's draft is discarded.
 *   - Storage failures (private mode, a full quota) are swallowed: the screen works without them.
 */

export type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const PREFIX = "forge.review-draft.v1";

export function draftKey(sessionId: string, reviewId: number): string {
  return `${PREFIX}:${sessionId}:${reviewId}`;
}

/** The home form's problem and constraints not yet sent (one per browser). */
export const NEW_SESSION_DRAFT_KEY = "forge.new-session-draft.v1";

export function restoreDraft<T extends object>(storage: DraftStorage, key: string, empty: T): T {
  let stored: unknown;
  try {
    const raw = storage.getItem(key);
    if (raw === null) return empty;
    stored = JSON.parse(raw);
  } catch {
    return empty;
  }
  if (!isRecord(stored)) return empty;
  const restored = { ...empty } as Record<string, unknown>;
  for (const [field, emptyValue] of Object.entries(empty)) {
    if (!(field in stored)) continue;
    const value = stored[field];
    if (emptyValue === null || kindOf(value) === kindOf(emptyValue)) restored[field] = value;
  }
  return restored as T;
}

export function saveDraft<T extends object>(storage: DraftStorage, key: string, draft: T, empty: T): void {
  try {
    const text = JSON.stringify(draft);
    if (text === JSON.stringify(empty)) storage.removeItem(key);
    else storage.setItem(key, text);
  } catch {
    // Private mode or a full quota: the draft lives on in the screen for this page view.
  }
}

export function discardDraft(storage: DraftStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing to do: the storage is unavailable.
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}
