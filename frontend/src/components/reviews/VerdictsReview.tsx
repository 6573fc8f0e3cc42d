import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { ClaimCard } from "./ClaimCard";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ReviewForm, TextArea } from "./ReviewForm";
import type { ClaimView, ReviewScreenProps, VerdictType } from "./reviewTypes";
import { EMPTY_VERDICT, EMPTY_VERDICTS_DRAFT, MAX_TEXT_CHARS, validateVerdicts, type VerdictDraft, type VerdictsDraft } from "./validateReviews";
import { RadioCard } from "../ui/RadioCard";
import { VerifyBreakdown } from "./VerifyBreakdown";

const VERDICTS: readonly { value: VerdictType; label: ParseKeys; help: ParseKeys }[] = [
  { value: "accept", label: "verdicts.accept", help: "verdicts.acceptHelp" },
  { value: "reject", label: "verdicts.reject", help: "verdicts.rejectHelp" },
  { value: "qualify", label: "verdicts.qualify", help: "verdicts.qualifyHelp" },
  { value: "merge", label: "verdicts.merge", help: "verdicts.mergeHelp" },
];

function shorten(text: string, max = 90): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function VerdictControls({
  claim,
  claims,
  value,
  onChange,
}: {
  claim: ClaimView;
  claims: readonly ClaimView[];
  value: VerdictDraft;
  onChange: (next: VerdictDraft) => void;
}) {
  const name = useId();
  const { t } = useTranslation();
  const n = claim.index + 1;
  const others = claims.filter((c) => c.index !== claim.index);
  const base = `verdict-${claim.id}`;
  return (
    <div className="space-y-3">
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-slate-900">{t("verdicts.verdictOn", { n })}</legend>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
          {VERDICTS.map((v) => (
            <RadioCard
              key={v.value}
              name={name}
              value={v.value}
              label={t(v.label)}
              help={t(v.help)}
              unavailable={v.value === "merge" && others.length === 0 ? t("verdicts.mergeUnavailable") : null}
              checked={value.verdict === v.value}
              onSelect={() => onChange({ ...value, verdict: v.value })}
              srLabel={t("verdicts.claimSr", { n })}
            />
          ))}
        </div>
      </fieldset>
      {value.verdict === "qualify" && (
        <TextArea
          id={`${base}-qualification`}
          label={t("verdicts.qualification", { n })}
          hint={t("verdicts.qualificationHint")}
          required
          value={value.qualification}
          onChange={(qualification) => onChange({ ...value, qualification })}
          maxChars={MAX_TEXT_CHARS}
        />
      )}
      {value.verdict === "merge" && (
        <div className="space-y-1">
          <label htmlFor={`${base}-merge`} className="block text-sm font-medium text-slate-800">
            {t("verdicts.mergeWith", { n })}<span className="ml-1 text-rose-700" aria-hidden>*</span>
          </label>
          <select
            id={`${base}-merge`}
            required
            value={value.mergeWith === null ? "" : String(value.mergeWith)}
            onChange={(e) => onChange({ ...value, mergeWith: e.target.value === "" ? null : Number(e.target.value) })}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
          >
            <option value="">{t("build.chooseClaim")}</option>
            {others.map((c) => (
              <option key={c.index} value={String(c.index)}>
                {t("verdicts.claimOption", { n: c.index + 1, text: shorten(c.text) })}
              </option>
            ))}
          </select>
        </div>
      )}
      <TextArea
        id={`${base}-reason`}
        label={t("verdicts.reason", { n })}
        value={value.reason}
        onChange={(reason) => onChange({ ...value, reason })}
        maxChars={MAX_TEXT_CHARS}
        rows={2}
      />
    </div>
  );
}

/** Review after VALIDATE: one verdict per claim — accept, reject, qualify (with the condition) or merge (with another claim). */
export function VerdictsReview({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_verdicts">) {
  const payload = event.data;
  const [draft, setDraft] = useReviewDraft<VerdictsDraft>(sessionId, event.id, EMPTY_VERDICTS_DRAFT);
  const { t } = useTranslation();
  const decided = payload.claims.filter((c) => (draft.verdicts[c.index] ?? EMPTY_VERDICT).verdict !== null).length;

  return (
    <ReviewForm
      testId="review-verdicts"
      title={t("verdicts.title", { round: payload.round + 1 })}
      intro={t("verdicts.intro", { decided, total: payload.claims.length })}
      submitLabel={t("verdicts.submit")}
      validate={() => validateVerdicts(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {payload.claims.map((claim) => (
        <section key={claim.id} aria-labelledby={`verdict-${claim.id}-title`} className="space-y-2">
          <h3 id={`verdict-${claim.id}-title`} className="text-base font-semibold text-slate-900">
            {t("claimsReview.claimN", { n: claim.index + 1 })}
          </h3>
          <ClaimCard claim={claim}>
            {claim.verify && <VerifyBreakdown verify={claim.verify} claimNumber={claim.index + 1} />}
            <VerdictControls
              claim={claim}
              claims={payload.claims}
              value={draft.verdicts[claim.index] ?? EMPTY_VERDICT}
              onChange={(next) => setDraft((d) => ({ verdicts: { ...d.verdicts, [claim.index]: next } }))}
            />
          </ClaimCard>
        </section>
      ))}
      {payload.claims.length === 0 && <p className="text-sm text-slate-500">{t("claimsReview.noClaims")}</p>}
    </ReviewForm>
  );
}
