import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { UserInput } from "../../api/client";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import type { ReviewValidation } from "./reviewTypes";

/**
 * The frame every review screen shares: a form whose controls are disabled while the agent runs or
 * a submit is in flight, a sticky footer with the submit button, and the two kinds of problems —
 * what the draft is missing (checked before sending) and the server's refusal (its `detail`, verbatim).
 * The draft lives in the screen, so a refusal never loses the person's edits.
 */
export function ReviewForm({
  testId,
  title,
  intro,
  submitLabel,
  validate,
  onSubmit,
  disabled = false,
  children,
}: {
  testId: string;
  title: string;
  intro: ReactNode;
  submitLabel: string;
  /** Validates the current draft; called on submit. */
  validate: () => ReviewValidation;
  onSubmit: (input: UserInput) => Promise<void>;
  disabled?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  // After a failed attempt the draft is checked again on every change, so each problem disappears
  // as soon as it is fixed (and a new one shows at once) instead of lingering until the next submit.
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const problemsRef = useRef<HTMLDivElement>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Move focus to the problems after each failed attempt, so keyboard and screen-reader users land on them.
  useEffect(() => {
    if (attempt > 0) problemsRef.current?.focus();
  }, [attempt]);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || disabled) return;
    const checked = validate();
    if (!checked.ok) {
      setRefusal(null);
      setChecking(true);
      setAttempt((n) => n + 1);
      return;
    }
    setChecking(false);
    setRefusal(null);
    setBusy(true);
    try {
      await onSubmit(checked.input);
    } catch (error) {
      if (!mounted.current) return;
      setRefusal(error instanceof Error && error.message ? error.message : t("reviewForm.refusedFallback"));
      setAttempt((n) => n + 1);
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  const rechecked = checking ? validate() : null;
  const errors = rechecked && !rechecked.ok ? rechecked.errors : [];
  const hasProblems = errors.length > 0 || refusal !== null;
  return (
    <form data-testid={testId} aria-label={title} noValidate onSubmit={submit} className="space-y-5">
      <header className="space-y-1">
        <h2 data-focus-target="review" tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          {title}
        </h2>
        <div className="text-sm text-slate-600">{intro}</div>
      </header>
      <fieldset disabled={disabled || busy} className="min-w-0 space-y-5">
        {children}
      </fieldset>
      <div className="sticky bottom-0 z-10 -mx-1 space-y-3 border-t border-slate-200 bg-white/95 px-1 py-3 backdrop-blur supports-[backdrop-filter]:bg-white/80">
        {hasProblems && (
          <div ref={problemsRef} tabIndex={-1} className="outline-none focus-visible:ring-2 focus-visible:ring-rose-300 rounded-lg">
            {errors.length > 0 && (
              <Alert title={t("reviewForm.fixFirst")}>
                <ul className="mt-1 list-disc space-y-0.5 pl-5">
                  {errors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              </Alert>
            )}
            {refusal !== null && (
              <Alert title={t("reviewForm.refused")}>
                <p className="mt-1 break-words">{refusal}</p>
              </Alert>
            )}
          </div>
        )}
        <div className="flex flex-wrap items-center justify-end gap-3">
          {disabled && !busy && <p className="text-sm text-slate-500">{t("reviewForm.waiting")}</p>}
          <Button type="submit" busy={busy} disabled={disabled} className="w-full sm:w-auto">
            {submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** A heading + body block inside a review screen. */
export function ReviewSection({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="space-y-0.5">
        <h3 className="text-base font-semibold text-slate-900">{title}</h3>
        {description && <p className="text-sm text-slate-600">{description}</p>}
      </header>
      {children}
    </section>
  );
}

/** A labelled textarea with a live character count (limits are checked on submit, not by truncating). */
export function TextArea({
  id,
  label,
  value,
  onChange,
  maxChars,
  rows = 3,
  required = false,
  hint,
  placeholder,
}: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  maxChars: number;
  rows?: number;
  required?: boolean;
  hint?: string;
  placeholder?: string;
}) {
  const length = value.trim().length;
  const over = length > maxChars;
  const showCount = length >= maxChars * 0.8; // a count only when the limit is near, to keep the screen calm
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {required && <span className="ml-1 text-rose-700" aria-hidden>*</span>}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        value={value}
        rows={rows}
        required={required}
        placeholder={placeholder}
        aria-describedby={[hint ? `${id}-hint` : "", showCount ? `${id}-count` : ""].filter(Boolean).join(" ") || undefined}
        aria-invalid={over || undefined}
        onChange={(e) => onChange(e.target.value)}
        className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 disabled:bg-slate-50"
      />
      {showCount && (
        <p id={`${id}-count`} className={`text-right text-xs ${over ? "font-medium text-rose-700" : "text-slate-500"}`}>
          {length} / {maxChars}
        </p>
      )}
    </div>
  );
}
