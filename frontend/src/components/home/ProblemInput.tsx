import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useCreateSession } from "../../hooks/useSessions";
import { writeAutopilot, DEFAULT_AUTOPILOT } from "../../session/autopilotPreference";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { TextListEditor } from "../ui/TextListEditor";

const MIN_CHARS = 10;
const EXAMPLES = [
  "How can a hospital cut emergency wait times without more staff?",
  "How can a city reduce traffic congestion without building new roads?",
  "How can a small bakery reduce food waste without losing sales?",
];

/** The problem form: problem text, optional constraints, autopilot toggle. */
export function ProblemInput() {
  const problemId = useId();
  const hintId = useId();
  const [problem, setProblem] = useState("");
  const [constraints, setConstraints] = useState<string[]>([]);
  const [autopilot, setAutopilot] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const create = useCreateSession();
  const navigate = useNavigate();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = problem.trim();
    if (text.length < MIN_CHARS) {
      setLocalError(`Describe the problem in at least ${MIN_CHARS} characters — what should change, and what limits you.`);
      return;
    }
    setLocalError(null);
    const session = await create.mutateAsync({ problem: text, constraints }).catch(() => null);
    if (!session) return;
    writeAutopilot(session.id, { ...DEFAULT_AUTOPILOT, enabled: autopilot });
    navigate(`/sessions/${session.id}`);
  };

  const error = localError ?? (create.error ? create.error.message : null);
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Start a session">
      <div className="space-y-1.5">
        <label htmlFor={problemId} className="block text-sm font-medium text-slate-800">
          Your problem
        </label>
        <textarea
          id={problemId}
          aria-describedby={hintId}
          value={problem}
          onChange={(e) => setProblem(e.target.value)}
          rows={4}
          maxLength={20000}
          placeholder={EXAMPLES[0]}
          className="w-full rounded-lg border border-slate-300 px-3 py-2 text-base shadow-inner"
        />
        <p id={hintId} className="text-xs text-slate-500">
          Say what should change and what limits you. Try:{" "}
          {EXAMPLES.map((ex, i) => (
            <button key={ex} type="button" className="text-indigo-700 underline decoration-dotted" onClick={() => setProblem(ex)}>
              {`example ${i + 1}`}
              {i < EXAMPLES.length - 1 ? ", " : ""}
            </button>
          ))}
        </p>
      </div>
      <TextListEditor
        label="Constraints (optional)"
        items={constraints}
        onChange={setConstraints}
        placeholder="e.g. without more staff"
        maxItems={10}
        maxLength={300}
      />
      <label className="flex items-start gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
        <input type="checkbox" className="mt-0.5 size-4" checked={autopilot} onChange={(e) => setAutopilot(e.target.checked)} />
        <span>
          <span className="font-medium">Autopilot</span>
          <span className="block text-slate-600">
            Let the engine answer each review with its default policy. You can switch it off at any time to take over.
          </span>
        </span>
      </label>
      {error && <Alert>{error}</Alert>}
      <Button type="submit" busy={create.isPending} className="w-full sm:w-auto">
        Start forging
      </Button>
    </form>
  );
}
