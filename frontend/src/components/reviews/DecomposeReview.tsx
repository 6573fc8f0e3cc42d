import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { Badge } from "../ui/Badge";
import { TextListEditor } from "../ui/TextListEditor";
import { ChoiceGroup } from "./ChoiceGroup";
import { ConstraintConflicts } from "./ConstraintConflicts";
import { EvidenceList } from "./EvidenceList";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ProblemFrameSummary } from "./EngineSummaries";
import { ReviewForm, ReviewSection } from "./ReviewForm";
import type { DecomposePayload, ReviewScreenProps } from "./reviewTypes";
import {
  EMPTY_DECOMPOSE_DRAFT,
  MAX_ADDED_ASSUMPTIONS,
  MAX_ADDED_REFRAMINGS,
  MAX_ITEM_CHARS,
  validateDecompose,
  type DecomposeDraft,
} from "./validateReviews";
import { evidenceWords, type MemoryChoice, type OfferedHypothesis } from "../../memory/describeMemory";

type AssumptionChoice = "confirm" | "reject" | "none";

const CHOICES: readonly { value: AssumptionChoice; label: ParseKeys }[] = [
  { value: "confirm", label: "decompose.confirm" },
  { value: "reject", label: "decompose.reject" },
  { value: "none", label: "decompose.noOpinion" },
];

function choiceOf(draft: DecomposeDraft, index: number): AssumptionChoice {
  if (draft.confirmedAssumptions.includes(index)) return "confirm";
  if (draft.rejectedAssumptions.includes(index)) return "reject";
  return "none";
}

function withChoice(draft: DecomposeDraft, index: number, choice: AssumptionChoice): DecomposeDraft {
  const confirmed = draft.confirmedAssumptions.filter((i) => i !== index);
  const rejected = draft.rejectedAssumptions.filter((i) => i !== index);
  return {
    ...draft,
    confirmedAssumptions: choice === "confirm" ? [...confirmed, index] : confirmed,
    rejectedAssumptions: choice === "reject" ? [...rejected, index] : rejected,
  };
}

function AssumptionChoices({
  assumption,
  choice,
  onChoose,
}: {
  assumption: DecomposePayload["assumptions"][number];
  choice: AssumptionChoice;
  onChoose: (choice: AssumptionChoice) => void;
}) {
  const n = assumption.index + 1;
  const { t } = useTranslation();
  return (
    <ChoiceGroup
      legend={
        <>
          <span className="font-medium">{t("decompose.assumptionN", { n })}</span>
          {assumption.text}
        </>
      }
      choices={CHOICES}
      choice={choice}
      onChoose={onChoose}
      srSuffix={t("decompose.assumptionSr", { n })}
    />
  );
}

type MemoryOption = MemoryChoice | "none";

const MEMORY_CHOICES: readonly { value: MemoryOption; label: ParseKeys }[] = [
  { value: "accept", label: "decompose.pin" },
  { value: "dismiss", label: "decompose.dismiss" },
  { value: "none", label: "decompose.leave" },
];

function withMemoryChoice(draft: DecomposeDraft, id: string, choice: MemoryOption): DecomposeDraft {
  const { [id]: _dropped, ...rest } = draft.memoryChoices ?? {};
  return { ...draft, memoryChoices: choice === "none" ? rest : { ...rest, [id]: choice } };
}

/** A hypothesis an earlier session judged, with its confidence, and the person's pin / dismiss choice. */
function RememberedChoices({
  item,
  n,
  choice,
  onChoose,
}: {
  item: OfferedHypothesis;
  n: number;
  choice: MemoryOption;
  onChoose: (choice: MemoryOption) => void;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceGroup
      testId="memory-offer"
      legend={
        <span className="block space-y-1">
          <span className="block break-words">
            <span className="font-medium">{t("decompose.earlierN", { n })}</span>
            {item.text}
          </span>
          <span className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <Badge tone={item.c >= 0.5 ? "emerald" : "amber"}>{t("decompose.confidence", { percent: item.confidence_percent })}</Badge>
            <span>{evidenceWords(item.support_count, item.contradiction_count)}</span>
            <span className="break-words">{t("decompose.fromQuestion", { question: item.origin_question })}</span>
          </span>
        </span>
      }
      choices={MEMORY_CHOICES}
      choice={choice}
      onChoose={onChoose}
      srSuffix={t("decompose.earlierSr", { n })}
    />
  );
}

/** Review after DECOMPOSE: read the fundamentals and state of the art, judge the assumptions, choose reframings. */
export function DecomposeReview({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_decompose">) {
  const payload = event.data;
  const [draft, setDraft] = useReviewDraft<DecomposeDraft>(sessionId, event.id, EMPTY_DECOMPOSE_DRAFT);
  const { t } = useTranslation();
  const toggleReframing = (index: number, on: boolean) =>
    setDraft((d) => ({
      ...d,
      selectedReframings: on ? [...d.selectedReframings.filter((i) => i !== index), index] : d.selectedReframings.filter((i) => i !== index),
    }));

  return (
    <ReviewForm
      testId="review-decompose"
      title={t("reviewType.decompose_review")}
      intro={t("decompose.intro")}
      submitLabel={t("decompose.submit")}
      validate={() => validateDecompose(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {(payload.constraint_conflicts ?? []).length > 0 && (
        <ConstraintConflicts
          conflicts={payload.constraint_conflicts ?? []}
          changes={draft.constraintChanges ?? {}}
          onChange={(constraintChanges) => setDraft((d) => ({ ...d, constraintChanges }))}
        />
      )}

      {payload.problem_frame && (
        <ReviewSection title={t("decompose.frameTitle")} description={t("decompose.frameDescription")}>
          <ProblemFrameSummary view={payload.problem_frame} />
        </ReviewSection>
      )}

      {(payload.memory ?? []).length > 0 && (
        <ReviewSection
          title={t("decompose.memoryTitle")}
          description={t("decompose.memoryDescription")}
        >
          <div className="space-y-3">
            {(payload.memory ?? []).map((m, i) => (
              <RememberedChoices
                key={m.episode_id}
                item={m}
                n={i + 1}
                choice={draft.memoryChoices?.[m.episode_id] ?? "none"}
                onChoose={(choice) => setDraft((d) => withMemoryChoice(d, m.episode_id, choice))}
              />
            ))}
          </div>
        </ReviewSection>
      )}

      <ReviewSection title={t("decompose.fundamentals")}>
        {payload.fundamentals.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
            {payload.fundamentals.map((f, i) => (
              <li key={i}>{f}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{t("decompose.noFundamentals")}</p>
        )}
      </ReviewSection>

      <ReviewSection title={t("decompose.stateOfArt")}>
        {payload.state_of_art ? (
          <div className="space-y-3">
            <p className="text-sm leading-relaxed text-slate-800">{payload.state_of_art.summary}</p>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("decompose.sources", { count: payload.state_of_art.evidence.length })}</h4>
            <EvidenceList evidence={payload.state_of_art.evidence} />
          </div>
        ) : (
          <p className="text-sm text-slate-500">{t("decompose.noStateOfArt")}</p>
        )}
      </ReviewSection>

      <ReviewSection title={t("decompose.assumptions")} description={t("decompose.assumptionsDescription")}>
        <div className="space-y-3">
          {payload.assumptions.map((a) => (
            <AssumptionChoices
              key={a.index}
              assumption={a}
              choice={choiceOf(draft, a.index)}
              onChoose={(choice) => setDraft((d) => withChoice(d, a.index, choice))}
            />
          ))}
          {payload.assumptions.length === 0 && <p className="text-sm text-slate-500">{t("decompose.noAssumptions")}</p>}
        </div>
        <TextListEditor
          label={t("decompose.addAssumption")}
          items={draft.addedAssumptions}
          onChange={(items) => setDraft((d) => ({ ...d, addedAssumptions: items }))}
          pending={draft.pendingAssumption}
          onPendingChange={(pendingAssumption) => setDraft((d) => ({ ...d, pendingAssumption }))}
          placeholder={t("decompose.assumptionPlaceholder")}
          maxItems={MAX_ADDED_ASSUMPTIONS}
          maxLength={MAX_ITEM_CHARS}
        />
      </ReviewSection>

      <ReviewSection title={t("decompose.reframings")} description={t("decompose.reframingsDescription")}>
        <ul className="space-y-2">
          {payload.reframings.map((r) => {
            const id = `reframing-${event.id}-${r.index}`;
            return (
              <li key={r.index} className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/50">
                <input
                  id={id}
                  type="checkbox"
                  checked={draft.selectedReframings.includes(r.index)}
                  onChange={(e) => toggleReframing(r.index, e.target.checked)}
                  className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                />
                <label htmlFor={id} className="min-w-0 cursor-pointer space-y-1 text-sm text-slate-800">
                  <span className="block">{r.text}</span>
                  <Badge tone="violet">{t(`reframingType.${r.reframing_type}`)}</Badge>
                </label>
              </li>
            );
          })}
        </ul>
        {payload.reframings.length === 0 && <p className="text-sm text-slate-500">{t("decompose.noReframings")}</p>}
        <TextListEditor
          label={t("decompose.addReframing")}
          items={draft.addedReframings}
          onChange={(items) => setDraft((d) => ({ ...d, addedReframings: items }))}
          pending={draft.pendingReframing}
          onPendingChange={(pendingReframing) => setDraft((d) => ({ ...d, pendingReframing }))}
          placeholder={t("decompose.reframingPlaceholder")}
          maxItems={MAX_ADDED_REFRAMINGS}
          maxLength={MAX_ITEM_CHARS}
        />
      </ReviewSection>
    </ReviewForm>
  );
}
