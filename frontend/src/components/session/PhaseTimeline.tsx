import { useTranslation } from "react-i18next";
import { PHASES, type PhaseName } from "../../session/sessionTimeline";
import { PHASE_LABELS } from "../../session/describeSession";

/** The six phases as steps: done, current (with the round), or still ahead. */
export function PhaseTimeline({ current, round, finished }: { current: PhaseName | null; round: number; finished: boolean }) {
  const { t } = useTranslation();
  const at = current ? PHASES.indexOf(current) : -1;
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
          </li>
        );
      })}
    </ol>
  );
}
