/**
 * What the agent is doing right now, in words for the live view: the step in progress (from the
 * activity) and how long the phase has run. Pure; the page supplies the clock.
 */
import type { ActivityItem } from "./sessionTimeline";

/** The step in progress: a tool called and not yet answered, or the last thing that happened. */
export function currentStep(activity: readonly ActivityItem[]): string | null {
  const last = activity.at(-1);
  if (!last) return null;
  switch (last.kind) {
    case "tool_call":
      return `Running ${readable(last.tool)}`;
    case "tool_result":
      return `Finished ${readable(last.event.data.tool)}; deciding the next step`;
    case "tool_error":
      return `${readable(last.tool)} failed; trying another way`;
    case "text":
      return "Writing up what it found";
    case "phase":
    case "resumed":
      return "Starting the phase";
    default:
      return null;
  }
}

/** "8 s", "2 min 05 s", "1 h 03 min". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

function readable(tool: string): string {
  return tool.replaceAll("_", " ");
}
