import { describe, expect, test } from "vitest";
import { discardDraft, draftKey, restoreDraft, saveDraft, type DraftStorage } from "../reviewDrafts";

function memoryStorage(initial: Record<string, string> = {}): DraftStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

interface Draft {
  decision: string | null;
  insight: string;
  urls: string[];
  pending: string;
}
const EMPTY: Draft = { decision: null, insight: "", urls: [], pending: "" };

describe("review drafts", () => {
  test("a saved draft comes back after a reload, for the same session and review only", () => {
    const storage = memoryStorage();
    const draft: Draft = { decision: "add_insight", insight: "Nights differ.", urls: ["https://example.org"], pending: "https://exa" };
    saveDraft(storage, draftKey("s1", 42), draft, EMPTY);
    expect(restoreDraft(storage, draftKey("s1", 42), EMPTY)).toEqual(draft);
    expect(restoreDraft(storage, draftKey("s1", 43), EMPTY)).toEqual(EMPTY);
    expect(restoreDraft(storage, draftKey("s2", 42), EMPTY)).toEqual(EMPTY);
  });

  test("a draft back to empty is removed rather than stored", () => {
    const storage = memoryStorage();
    saveDraft(storage, draftKey("s1", 1), { ...EMPTY, insight: "x" }, EMPTY);
    expect(storage.items.size).toBe(1);
    saveDraft(storage, draftKey("s1", 1), EMPTY, EMPTY);
    expect(storage.items.size).toBe(0);
  });

  test("a discarded draft is gone", () => {
    const storage = memoryStorage();
    saveDraft(storage, draftKey("s1", 1), { ...EMPTY, insight: "x" }, EMPTY);
    discardDraft(storage, draftKey("s1", 1));
    expect(restoreDraft(storage, draftKey("s1", 1), EMPTY)).toEqual(EMPTY);
  });

  test("restores only the fields that still fit the screen's draft", () => {
    const key = draftKey("s1", 1);
    const storage = memoryStorage({ [key]: JSON.stringify({ decision: "resolve", insight: 7, urls: "not a list", removed: true }) });
    expect(restoreDraft(storage, key, EMPTY)).toEqual({ decision: "resolve", insight: "", urls: [], pending: "" });
  });

  test("anything unreadable gives the empty draft", () => {
    const key = draftKey("s1", 1);
    for (const raw of ["{not json", "null", "[1,2]", '"text"']) expect(restoreDraft(memoryStorage({ [key]: raw }), key, EMPTY)).toEqual(EMPTY);
  });

  test("a storage that refuses to work never breaks the screen", () => {
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(() => saveDraft(broken, "k", { ...EMPTY, insight: "x" }, EMPTY)).not.toThrow();
    expect(() => discardDraft(broken, "k")).not.toThrow();
    expect(restoreDraft(broken, "k", EMPTY)).toEqual(EMPTY);
  });
});
