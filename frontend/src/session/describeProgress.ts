/**
 * What the agent is doing right now, in words for the live view: the step in progress (from the
 * activity) and how long the phase has run, in the UI's language. Pure but for the language; the
 * page supplies the clock.
 */
import { i18n } from "../i18n/i18n";
import type { ActivityItem } from "./sessionTimeline";

/** The step in progress: a tool called and not yet answered, or the last thing that happened. */
export function currentStep(activity: readonly ActivityItem[]): string | null {
  const last = activity.at(-1);
  if (!last) return null;
  switch (last.kind) {
    case "tool_call":
      return i18n.t("progress.running", { tool: readable(last.tool) });
    case "tool_result":
      return i18n.t("progress.finished", { tool: readable(last.event.data.tool) });
    case "tool_error":
      return i18n.t("progress.failed", { tool: readable(last.tool) });
    case "text":
      return i18n.t("progress.writing");
    case "phase":
    case "resumed":
      return i18n.t("progress.startingPhase");
    default:
      return null;
  }
}

/** "8 s", "2 min 05 s", "1 h 03 min". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return i18n.t("progress.seconds", { s: seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return i18n.t("progress.minutes", { m: minutes, s: String(seconds % 60).padStart(2, "0") });
  return i18n.t("progress.hours", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
}

function readable(tool: string): string {
  return tool.replaceAll("_", " ");
}
