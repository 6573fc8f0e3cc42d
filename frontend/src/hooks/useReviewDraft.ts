/**
 * A review screen's draft state that survives a reload: `useState` backed by `reviewDrafts`
 * (local storage per session and review). Without a session id (tests, previews) it is plain state.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from "react";
import { draftKey, restoreDraft, saveDraft } from "../session/reviewDrafts";

export function useReviewDraft<T extends object>(sessionId: string | undefined, reviewId: number, empty: T): [T, Dispatch<SetStateAction<T>>] {
  const key = sessionId ? draftKey(sessionId, reviewId) : null;
  const [draft, setDraft] = useState<T>(() => (key ? restoreDraft(localStorage, key, empty) : empty));
  useEffect(() => {
    if (key) saveDraft(localStorage, key, draft, empty);
  }, [key, draft, empty]);
  return [draft, setDraft];
}
