import type { EngineProgress } from "../../session/sessionTimeline";
import { engineProgressText } from "../../session/engineProgressText";

/**
 * The engine stage at work (e.g. BISO asking one model call per source domain): a bar from the
 * live `engine_progress` events, with the count in words for screen readers. Renders nothing
 * when no stage is running.
 */
export function EngineProgressBar({ progress }: { progress: EngineProgress | null }) {
  if (progress === null || progress.total === 0) return null;
  const text = engineProgressText(progress);
  return (
    <div className="rounded-md border border-violet-200 bg-white p-2.5 text-sm" data-testid="engine-progress">
      <div className="mb-1 flex justify-between text-xs text-violet-900">
        <span>{text.label}</span>
        <span>{text.count}</span>
      </div>
      <progress className="h-2 w-full accent-violet-600" max={progress.total} value={progress.done} aria-label={text.label}>
        {text.count}
      </progress>
    </div>
  );
}
