import { useTranslation } from "react-i18next";
import { PHASES, type CheckpointMark, type PhaseName } from "../../session/sessionTimeline";
import { PHASE_LABELS } from "../../session/describeSession";
import { checkpointsByPhase } from "../../session/supervisorView";

/** The six phases as steps: done, current (with the round), or still ahead; under each, the SAGA
 * checkpoints (CP-1..7) recorded in it, passed (✓) or with their number of findings. */
export function PhaseTimeline({
  current,
  round,
  finished,
  checkpoints = [],
}: {
  current: PhaseName | null;
  round: number;
  finished: boolean;
  checkpoints?: readonly CheckpointMark[];
}) {
  const { t } = useTranslation();
  const at = current ? PHASES.indexOf(current) : -1;
  const marks = checkpointsByPhase(checkpoints);
  return (
    <ol className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label={t("phases.label")}>
      {PHASES.map((phase, i) => {
        const state = finished || i < at ? "done" : i === at ? "current" : "ahead";
        const styles = {
          done: "border-emerald-300 bg-emerald-50 text-emerald-900",
          current: "border-indigo-500 bg-indigo-50 text-indigo-900 ring-2 ring-indigo-200",
          ahead: "border-slate-200 bg-white text-slate-500",
        }[state];
        return (
          <li
            key={phase}
            aria-current={state === "current" ? "step" : undefined}
            data-testid={`phase-${phase}`}
            data-state={state}
            className={`rounded-lg border px-2.5 py-2 text-xs sm:text-sm ${styles}`}
          >
            <span className="block font-semibold">
              {state === "done" ? "✓ " : `${i + 1}. `}
              {PHASE_LABELS[phase]}
            </span>
            {state === "current" && <span className="block text-[11px] text-indigo-700">{t("phases.round", { round: round + 1 })}</span>}
            {marks[phase] && (
              <span className="mt-1 flex flex-wrap gap-1" data-testid={`checkpoints-${phase}`}>
                {marks[phase].map((m) => (
                  <span
                    key={`${m.checkpoint}-${m.round}`}
                    title={m.summary}
                    className={`rounded px-1 text-[10px] font-medium ${m.passed ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-900"}`}
                  >
                    {m.passed ? t("phases.checkpointPassed", { checkpoint: m.checkpoint }) : t("phases.checkpointFindings", { checkpoint: m.checkpoint, n: m.findings })}
                  </span>
                ))}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
