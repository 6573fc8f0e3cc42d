import { useTranslation } from "react-i18next";
import { ClaimCard } from "./ClaimCard";
import { SelectionPlots } from "./SelectionPlots";
import { SearchLineagePanel, SearchRoundSummary } from "./HypothesisLineage";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ReviewForm, TextArea } from "./ReviewForm";
import type { ReviewScreenProps } from "./reviewTypes";
import { EMPTY_CLAIMS_DRAFT, MAX_TEXT_CHARS, validateClaims, type ClaimsDraft } from "./validateReviews";

/** Review after SYNTHESIZE: read the round's claims and, optionally, give feedback on each before validation. */
export function ClaimsReview({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_claims">) {
  const payload = event.data;
  const [draft, setDraft] = useReviewDraft<ClaimsDraft>(sessionId, event.id, EMPTY_CLAIMS_DRAFT);
  const { t } = useTranslation();

  return (
    <ReviewForm
      testId="review-claims"
      title={t("claimsReview.title", { round: payload.round + 1 })}
      intro={t("claimsReview.intro")}
      submitLabel={t("claimsReview.submit")}
      validate={() => validateClaims(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {sessionId && <SelectionPlots sessionId={sessionId} />}
      {payload.claims.map((claim) => {
        const n = claim.index + 1;
        return (
          <section key={claim.id} aria-labelledby={`claim-${claim.id}-title`} className="space-y-2">
            <h3 id={`claim-${claim.id}-title`} className="text-base font-semibold text-slate-900">
              {t("claimsReview.claimN", { n })}
            </h3>
            <ClaimCard claim={claim}>
              <TextArea
                id={`claim-${claim.id}-feedback`}
                label={t("claimsReview.feedback", { n })}
                hint={t("claimsReview.feedbackHint")}
                value={draft.feedback[claim.index] ?? ""}
                onChange={(text) => setDraft((d) => ({ feedback: { ...d.feedback, [claim.index]: text } }))}
                maxChars={MAX_TEXT_CHARS}
              />
            </ClaimCard>
          </section>
        );
      })}
      {payload.claims.length === 0 && <p className="text-sm text-slate-500">{t("claimsReview.noClaims")}</p>}
      {payload.search && <SearchRoundSummary search={payload.search} />}
      {payload.search && sessionId && <SearchLineagePanel sessionId={sessionId} round={payload.round} />}
    </ReviewForm>
  );
}
