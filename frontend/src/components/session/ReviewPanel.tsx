import type { UserInput } from "../../api/client";
import type { ReviewEvent } from "../../api/events";
import { BuildDecision } from "../reviews/BuildDecision";
import { ClaimsReview } from "../reviews/ClaimsReview";
import { DecomposeReview } from "../reviews/DecomposeReview";
import { ExploreReview } from "../reviews/ExploreReview";
import { VerdictsReview } from "../reviews/VerdictsReview";

/** The review screen for the pending review event (an explicit map: one screen per review type). */
export function ReviewPanel({ event, onSubmit, disabled }: { event: ReviewEvent; onSubmit: (input: UserInput) => Promise<void>; disabled: boolean }) {
  switch (event.type) {
    case "review_decompose":
      return <DecomposeReview key={event.id} event={event} onSubmit={onSubmit} disabled={disabled} />;
    case "review_explore":
      return <ExploreReview key={event.id} event={event} onSubmit={onSubmit} disabled={disabled} />;
    case "review_claims":
      return <ClaimsReview key={event.id} event={event} onSubmit={onSubmit} disabled={disabled} />;
    case "review_verdicts":
      return <VerdictsReview key={event.id} event={event} onSubmit={onSubmit} disabled={disabled} />;
    case "review_build":
      return <BuildDecision key={event.id} event={event} onSubmit={onSubmit} disabled={disabled} />;
  }
}
