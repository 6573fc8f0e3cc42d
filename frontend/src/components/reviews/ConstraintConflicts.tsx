import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { ChoiceGroup } from "./ChoiceGroup";
import { ReviewSection } from "./ReviewForm";
import type { DecomposePayload } from "./reviewTypes";

type Conflict = NonNullable<DecomposePayload["constraint_conflicts"]>[number];
/** Constraints dropped (null) or relaxed (the looser wording), by constraint index. */
export type ConstraintChanges = Readonly<Record<number, string | null>>;
type ConstraintAction = "keep" | "drop" | "relax";

const ACTIONS: readonly { value: ConstraintAction; label: ParseKeys }[] = [
  { value: "keep", label: "decompose.keep" },
  { value: "drop", label: "decompose.drop" },
  { value: "relax", label: "decompose.relax" },
];

function actionOf(changes: ConstraintChanges, index: number): ConstraintAction {
  if (!(index in changes)) return "keep";
  return changes[index] === null ? "drop" : "relax";
}

/** The changes with one constraint kept, dropped or relaxed (a relaxed wording already typed is kept). */
export function withConstraintAction(changes: ConstraintChanges, index: number, action: ConstraintAction): ConstraintChanges {
  const { [index]: previous, ...rest } = changes;
  if (action === "keep") return rest;
  if (action === "drop") return { ...rest, [index]: null };
  return { ...rest, [index]: typeof previous === "string" ? previous : "" };
}

function ConstraintChoice({
  index,
  text,
  changes,
  onChange,
}: {
  index: number;
  text: string;
  changes: ConstraintChanges;
  onChange: (changes: ConstraintChanges) => void;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const n = index + 1;
  const action = actionOf(changes, index);
  const relaxed = changes[index];
  return (
    <div className="space-y-2">
      <ChoiceGroup
        testId="constraint-choice"
        legend={
          <span className="break-words">
            <span className="font-medium">{t("decompose.constraintN", { n })}</span>
            {text}
          </span>
        }
        choices={ACTIONS}
        choice={action}
        onChoose={(next) => onChange(withConstraintAction(changes, index, next))}
        srSuffix={t("decompose.constraintSr", { n })}
      />
      {action === "relax" && (
        <div className="space-y-1 pl-3">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            {t("decompose.relaxLabel", { n })}
          </label>
          <input
            id={inputId}
            type="text"
            value={typeof relaxed === "string" ? relaxed : ""}
            onChange={(e) => onChange({ ...changes, [index]: e.target.value })}
            placeholder={t("decompose.relaxPlaceholder")}
            className="w-full min-w-0 rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
          />
        </div>
      )}
    </div>
  );
}

/**
 * CP-1 at the decompose review: each conflict between the person's constraints, explained, with a
 * keep / drop / relax choice for each of its constraints. The session waits here until every
 * conflict has one constraint dropped or relaxed (the review then sends `constraint_changes`).
 */
export function ConstraintConflicts({
  conflicts,
  changes,
  onChange,
}: {
  conflicts: readonly Conflict[];
  changes: ConstraintChanges;
  onChange: (changes: ConstraintChanges) => void;
}) {
  const { t } = useTranslation();
  return (
    <ReviewSection title={t("decompose.conflictTitle")} description={t("decompose.conflictDescription")}>
      <div className="space-y-4" data-testid="constraint-conflicts">
        {conflicts.map((conflict, k) => (
          <div key={conflict.indices.join("-")} className="space-y-3 rounded-lg border border-amber-300 bg-amber-50/60 p-3">
            <h4 className="text-sm font-semibold text-amber-900">{t("decompose.conflictN", { n: k + 1 })}</h4>
            {conflict.message && <p className="break-words text-sm text-slate-800">{conflict.message}</p>}
            {conflict.indices.map((index, i) => (
              <ConstraintChoice key={index} index={index} text={conflict.constraints[i] ?? ""} changes={changes} onChange={onChange} />
            ))}
          </div>
        ))}
      </div>
    </ReviewSection>
  );
}
