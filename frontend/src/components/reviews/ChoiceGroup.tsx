import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";

/** One radio group in a bordered fieldset: the legend says what is chosen about, the suffix names it to a screen reader. */
export function ChoiceGroup<T extends string>({
  legend,
  choices,
  choice,
  onChoose,
  srSuffix,
  testId,
}: {
  legend: ReactNode;
  choices: readonly { value: T; label: ParseKeys }[];
  choice: T;
  onChoose: (choice: T) => void;
  srSuffix: string;
  testId?: string;
}) {
  const name = useId();
  const { t } = useTranslation();
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
            {t(c.label)}
            <span className="sr-only"> {srSuffix}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
