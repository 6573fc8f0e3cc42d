import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { usePersistentDraft } from "../../hooks/useReviewDraft";
import { useCreateSession } from "../../hooks/useSessions";
import { discardDraft, NEW_SESSION_DRAFT_KEY } from "../../session/reviewDrafts";
import { writeAutopilot, DEFAULT_AUTOPILOT } from "../../session/autopilotPreference";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { TextListEditor } from "../ui/TextListEditor";
import { MAX_CHARS, MAX_CONSTRAINT_CHARS, MAX_CONSTRAINTS, problemsOf } from "./validateProblem";

interface NewSessionDraft {
  readonly problem: string;
  readonly constraints: string[];
  readonly pendingConstraint: string;
}

const EMPTY_NEW_SESSION: NewSessionDraft = { problem: "", constraints: [], pendingConstraint: "" };

const EXAMPLES = ["problem.example1", "problem.example2", "problem.example3"] as const;

/**
 * The problem form: problem text, optional constraints, autopilot toggle. What is typed is never
 * dropped: a constraint typed but not added is added on submit (or submit says why it cannot be),
 * a problem over the limit is not cut but explained, and each problem message disappears as soon as
 * the text is fixed (problems are re-checked on every change once a submit has failed).
 */
export function ProblemInput() {
  const { t, i18n } = useTranslation();
  const examples = EXAMPLES.map((key) => t(key));
  const n = (value: number) => value.toLocaleString(i18n.language);
  const problemId = useId();
  const hintId = useId();
  // Kept in this browser until the session is created: a reload loses nothing typed.
  const [draft, setDraft] = usePersistentDraft(NEW_SESSION_DRAFT_KEY, EMPTY_NEW_SESSION);
  const { problem, constraints, pendingConstraint } = draft;
  const setProblem = (text: string) => setDraft((d) => ({ ...d, problem: text }));
  const setConstraints = (items: string[]) => setDraft((d) => ({ ...d, constraints: items }));
  const setPendingConstraint = (text: string) => setDraft((d) => ({ ...d, pendingConstraint: text }));
  const [autopilot, setAutopilot] = useState(false);
  const [checking, setChecking] = useState(false);
  const create = useCreateSession();
  const navigate = useNavigate();
  const problems = checking ? problemsOf(problem, constraints, pendingConstraint) : [];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problemsOf(problem, constraints, pendingConstraint).length) {
      setChecking(true);
      return;
    }
    setChecking(false);
    const pending = pendingConstraint.trim();
    const all = pending ? [...constraints, pending] : constraints;
    if (pending) setDraft((d) => ({ ...d, constraints: all, pendingConstraint: "" }));
    const session = await create.mutateAsync({ problem: problem.trim(), constraints: all }).catch(() => null);
    if (!session) return;
    discardDraft(localStorage, NEW_SESSION_DRAFT_KEY);
    setDraft(EMPTY_NEW_SESSION);
    writeAutopilot(session.id, { ...DEFAULT_AUTOPILOT, enabled: autopilot });
    navigate(`/sessions/${session.id}`);
  };

  const length = problem.trim().length;
  const nearLimit = length >= MAX_CHARS * 0.9;
  const error = problems[0] ?? (create.error ? create.error.message : null);
  return (
    <form onSubmit={submit} className="space-y-4" aria-label={t("problem.formLabel")}>
      <div className="space-y-1.5">
        <label htmlFor={problemId} className="block text-sm font-medium text-slate-800">
          {t("problem.label")}
        </label>
        <textarea
          id={problemId}
          aria-describedby={nearLimit ? `${hintId} ${hintId}-count` : hintId}
          aria-invalid={length > MAX_CHARS || undefined}
          value={problem}
          onChange={(e) => setProblem(e.target.value)}
          rows={4}
          placeholder={examples[0]}
          className="w-full rounded-lg border border-slate-300 px-3 py-2 text-base shadow-inner"
        />
        {nearLimit && (
          <p id={`${hintId}-count`} className={`text-right text-xs ${length > MAX_CHARS ? "font-medium text-rose-700" : "text-slate-600"}`}>
            {t("problem.count", { length: n(length), max: n(MAX_CHARS) })}
            {length > MAX_CHARS ? t("problem.overBy", { over: n(length - MAX_CHARS) }) : ""}
          </p>
        )}
        <div id={hintId} className="text-xs text-slate-600">
          <p>{t("problem.hint")}</p>
          <ul className="mt-1 space-y-1">
            {examples.map((ex) => (
              <li key={ex}>
                <button type="button" className="text-left text-indigo-700 underline decoration-dotted underline-offset-2" onClick={() => setProblem(ex)}>
                  {ex}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <TextListEditor
        label={t("problem.constraintsLabel")}
        items={constraints}
        onChange={setConstraints}
        placeholder={t("problem.constraintPlaceholder")}
        maxItems={MAX_CONSTRAINTS}
        maxLength={MAX_CONSTRAINT_CHARS}
        pending={pendingConstraint}
        onPendingChange={setPendingConstraint}
      />
      <label className="flex items-start gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
        <input type="checkbox" className="mt-0.5 size-4" checked={autopilot} onChange={(e) => setAutopilot(e.target.checked)} />
        <span>
          <span className="font-medium">{t("problem.autopilot")}</span>
          <span className="block text-slate-600">{t("problem.autopilotHelp")}</span>
        </span>
      </label>
      {error && <Alert>{error}</Alert>}
      <Button type="submit" busy={create.isPending} className="w-full sm:w-auto">
        {t("problem.submit")}
      </Button>
    </form>
  );
}
