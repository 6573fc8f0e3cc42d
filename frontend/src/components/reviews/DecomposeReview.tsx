import { useId, type ReactNode } from "react";
import { Badge } from "../ui/Badge";
import { TextListEditor } from "../ui/TextListEditor";
import { EvidenceList } from "./EvidenceList";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ProblemFrameSummary } from "./EngineSummaries";
import { ReviewForm, ReviewSection } from "./ReviewForm";
import type { DecomposePayload, ReviewScreenProps } from "./reviewTypes";
import { EMPTY_DECOMPOSE_DRAFT, MAX_ADDED_ITEMS, validateDecompose, type DecomposeDraft } from "./validateReviews";
import { evidenceWords, type MemoryChoice, type OfferedHypothesis } from "../../memory/describeMemory";

type AssumptionChoice = "confirm" | "reject" | "none";

const CHOICES: readonly { value: AssumptionChoice; label: string }[] = [
  { value: "confirm", label: "Confirm" },
  { value: "reject", label: "Reject" },
  { value: "none", label: "No opinion" },
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

/** One radio group in a bordered fieldset: the legend says what is chosen about, the suffix names it to a screen reader. */
function ChoiceGroup<T extends string>({
  legend,
  choices,
  choice,
  onChoose,
  srSuffix,
  testId,
}: {
  legend: ReactNode;
  choices: readonly { value: T; label: string }[];
  choice: T;
  onChoose: (choice: T) => void;
  srSuffix: string;
  testId?: string;
}) {
  const name = useId();
  return (
    <fieldset className="min-w-0 rounded-lg border border-slate-200 p-3" data-testid={testId}>
      <legend className="float-left mb-2 w-full text-sm text-slate-900">{legend}</legend>
      <div className="clear-left flex flex-wrap gap-x-5 gap-y-2">
        {choices.map((c) => (
          <label key={c.value} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name={name}
              value={c.value}
              checked={choice === c.value}
              onChange={() => onChoose(c.value)}
              className="size-4 accent-indigo-600"
            />
            {c.label}
            <span className="sr-only"> {srSuffix}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
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
  return (
    <ChoiceGroup
      legend={
        <>
          <span className="font-medium">Assumption {n}: </span>
          {assumption.text}
        </>
      }
      choices={CHOICES}
      choice={choice}
      onChoose={onChoose}
      srSuffix={`assumption ${n}`}
    />
  );
}

type MemoryOption = MemoryChoice | "none";

const MEMORY_CHOICES: readonly { value: MemoryOption; label: string }[] = [
  { value: "accept", label: "Pin: use it in later phases" },
  { value: "dismiss", label: "Dismiss" },
  { value: "none", label: "Leave it" },
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
  return (
    <ChoiceGroup
      testId="memory-offer"
      legend={
        <span className="block space-y-1">
          <span className="block break-words">
            <span className="font-medium">Earlier finding {n}: </span>
            {item.text}
          </span>
          <span className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <Badge tone={item.c >= 0.5 ? "emerald" : "amber"}>confidence {item.confidence_percent}%</Badge>
            <span>{evidenceWords(item.support_count, item.contradiction_count)}</span>
            <span className="break-words">from “{item.origin_question}”</span>
          </span>
        </span>
      }
      choices={MEMORY_CHOICES}
      choice={choice}
      onChoose={onChoose}
      srSuffix={`earlier finding ${n}`}
    />
  );
}

/** Review after DECOMPOSE: read the fundamentals and state of the art, judge the assumptions, choose reframings. */
export function DecomposeReview({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_decompose">) {
  const payload = event.data;
  const [draft, setDraft] = useReviewDraft<DecomposeDraft>(sessionId, event.id, EMPTY_DECOMPOSE_DRAFT);
  const toggleReframing = (index: number, on: boolean) =>
    setDraft((d) => ({
      ...d,
      selectedReframings: on ? [...d.selectedReframings.filter((i) => i !== index), index] : d.selectedReframings.filter((i) => i !== index),
    }));

  return (
    <ReviewForm
      testId="review-decompose"
      title="Review the decomposition"
      intro="Check what the agent found, say which assumptions hold, and choose the reframings to explore. At least one reframing — chosen or your own — is needed."
      submitLabel="Confirm and explore"
      validate={() => validateDecompose(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {payload.problem_frame && (
        <ReviewSection title="Problem frame" description="How the engine reads your problem; the constraint audit's findings are below it.">
          <ProblemFrameSummary view={payload.problem_frame} />
        </ReviewSection>
      )}

      {(payload.memory ?? []).length > 0 && (
        <ReviewSection
          title="What earlier sessions found"
          description="Hypotheses earlier sessions judged that are close to this problem, with how confident the verdicts made them. The agent has seen them; pin the ones later phases should build on, dismiss the ones that do not apply."
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

      <ReviewSection title="Fundamentals">
        {payload.fundamentals.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
            {payload.fundamentals.map((f, i) => (
              <li key={i}>{f}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No fundamentals were recorded.</p>
        )}
      </ReviewSection>

      <ReviewSection title="State of the art">
        {payload.state_of_art ? (
          <div className="space-y-3">
            <p className="text-sm leading-relaxed text-slate-800">{payload.state_of_art.summary}</p>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Sources ({payload.state_of_art.evidence.length})</h4>
            <EvidenceList evidence={payload.state_of_art.evidence} />
          </div>
        ) : (
          <p className="text-sm text-slate-500">No state-of-the-art summary was recorded.</p>
        )}
      </ReviewSection>

      <ReviewSection title="Assumptions" description="Confirm the ones that hold, reject the ones that don't; leave the rest at “No opinion”.">
        <div className="space-y-3">
          {payload.assumptions.map((a) => (
            <AssumptionChoices
              key={a.index}
              assumption={a}
              choice={choiceOf(draft, a.index)}
              onChoose={(choice) => setDraft((d) => withChoice(d, a.index, choice))}
            />
          ))}
          {payload.assumptions.length === 0 && <p className="text-sm text-slate-500">No assumptions were found.</p>}
        </div>
        <TextListEditor
          label="Add an assumption the agent missed"
          items={draft.addedAssumptions}
          onChange={(items) => setDraft((d) => ({ ...d, addedAssumptions: items }))}
          pending={draft.pendingAssumption}
          onPendingChange={(pendingAssumption) => setDraft((d) => ({ ...d, pendingAssumption }))}
          placeholder="e.g. Demand arrives evenly through the day"
          maxItems={MAX_ADDED_ITEMS}
        />
      </ReviewSection>

      <ReviewSection title="Reframings" description="Select the ways of posing the problem worth exploring, or add your own.">
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
                  <Badge tone="violet">{r.reframing_type.replace("_", " ")}</Badge>
                </label>
              </li>
            );
          })}
        </ul>
        {payload.reframings.length === 0 && <p className="text-sm text-slate-500">No reframings were proposed; add your own.</p>}
        <TextListEditor
          label="Add your own reframing"
          items={draft.addedReframings}
          onChange={(items) => setDraft((d) => ({ ...d, addedReframings: items }))}
          pending={draft.pendingReframing}
          onPendingChange={(pendingReframing) => setDraft((d) => ({ ...d, pendingReframing }))}
          placeholder="e.g. Treat the backlog as a buffer to design, not a failure"
          maxItems={MAX_ADDED_ITEMS}
        />
      </ReviewSection>
    </ReviewForm>
  );
}
