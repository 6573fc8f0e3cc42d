/**
 * Form drafts that survive a reload: `useState` backed by `reviewDrafts` (local storage). A review
 * screen keys its draft by session and review; the home form by a fixed key. Without a key (tests,
 * previews) it is plain state.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from "react";
import { draftKey, restoreDraft, saveDraft } from "../session/reviewDrafts";

export function usePersistentDraft<T extends object>(key: string | null, empty: T): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState<T>(() => (key ? restoreDraft(localStorage, key, empty) : empty));
  useEffect(() => {
    if (key) saveDraft(localStorage, key, draft, empty);
  }, [key, draft, empty]);
  return [draft, setDraft];
}

export function useReviewDraft<T extends object>(sessionId: string | undefined, reviewId: number, empty: T): [T, Dispatch<SetStateAction<T>>] {
  return usePersistentDraft(sessionId ? draftKey(sessionId, reviewId) : null, empty);
}
