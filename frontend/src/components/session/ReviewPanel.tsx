import type { UserInput } from "../../api/client";
import type { ReviewEvent } from "../../api/events";
import { BuildDecision } from "../reviews/BuildDecision";
import { ClaimsReview } from "../reviews/ClaimsReview";
import { DecomposeReview } from "../reviews/DecomposeReview";
import { ExploreReview } from "../reviews/ExploreReview";
import { VerdictsReview } from "../reviews/VerdictsReview";
import { discardDraft, draftKey } from "../../session/reviewDrafts";

/**
 * The review screen for the pending review event (an explicit map: one screen per review type).
 * Its unsent draft is kept per session and review; a review the server accepted discards it.
 */
export function ReviewPanel({
  event,
  sessionId,
  onSubmit: send,
  disabled,
}: {
  event: ReviewEvent;
  sessionId: string;
  onSubmit: (input: UserInput) => Promise<void>;
  disabled: boolean;
}) {
  const onSubmit = async (input: UserInput) => {
    await send(input);
    discardDraft(localStorage, draftKey(sessionId, event.id));
  };
  switch (event.type) {
    case "review_decompose":
      return <DecomposeReview key={event.id} event={event} sessionId={sessionId} onSubmit={onSubmit} disabled={disabled} />;
    case "review_explore":
      return <ExploreReview key={event.id} event={event} sessionId={sessionId} onSubmit={onSubmit} disabled={disabled} />;
    case "review_claims":
      return <ClaimsReview key={event.id} event={event} sessionId={sessionId} onSubmit={onSubmit} disabled={disabled} />;
    case "review_verdicts":
      return <VerdictsReview key={event.id} event={event} sessionId={sessionId} onSubmit={onSubmit} disabled={disabled} />;
    case "review_build":
      return <BuildDecision key={event.id} event={event} sessionId={sessionId} onSubmit={onSubmit} disabled={disabled} />;
  }
}
