/**
 * The supervisor (SAGA) as the screen shows it: findings with their statistic in words, grouped by
 * checkpoint; checkpoint marks per phase; and the person's pending decisions (dismiss a finding,
 * adopt a suggested constraint) merged into the next review they send. Pure.
 *
 * Invariants:
 *   - `describeStatistic` states the comparison that made the finding fire (std < 0.8, |r| > 0.7,
 *     F with p < α, |Δscore| ≥ 1.5, share ≥ 60%, …) with the values rounded for reading.
 *   - `withDecisions` adds `dismissed_findings` / `adopted_constraints` only when non-empty, so a
 *     review without supervisor choices is sent exactly as before.
 *   - A decision is a toggle: choosing the same id twice removes it.
 */
import type { ParseKeys } from "i18next";
import type { Schemas, UserInput } from "../api/client";
import { i18n } from "../i18n/i18n";
import type { CheckpointMark, PhaseName } from "./sessionTimeline";

export type Supervisor = Schemas["SupervisorOut"];
export type SupervisorFinding = Supervisor["findings"][number];
export type SupervisorDirective = Supervisor["directives"][number];

const round2 = (x: number) => (Math.round(x * 100) / 100).toString();

export function describeStatistic(f: Pick<SupervisorFinding, "kind" | "statistic" | "threshold" | "p_value">): string {
  const s = round2(f.statistic);
  const t = round2(f.threshold);
  switch (f.kind) {
    case "score_compression":
      return `std ${s} < ${t}`;
    case "dimension_collinearity":
      return `|r| ${s} > ${t}`;
    case "source_domain_bias":
      return f.p_value === null || f.p_value === undefined ? i18n.t("supervisor.stat.shareLimit", { s, t }) : `F ${s}, p ${f.p_value.toPrecision(2)} < ${t}`;
    case "shallow_rewrite":
      return `|Δscore| ${s} ≥ ${t}`;
    case "diversity_collapse":
      return i18n.t("supervisor.stat.shareAtLeast", { s: Math.round(f.statistic * 100), t: Math.round(f.threshold * 100) });
    case "stale_idea":
      return i18n.t("supervisor.stat.distance", { s, t });
    case "favourite_pattern":
      return i18n.t("supervisor.stat.seenIn", { s, t });
    case "red_team_challenge":
      return i18n.t("supervisor.stat.challengesFailed", { s });
    default:
      return f.statistic ? i18n.t("supervisor.stat.cases", { s }) : "";
  }
}

const LAYER_KEYS: Readonly<Record<number, ParseKeys>> = {
  1: "supervisor.layer1",
  2: "supervisor.layer2",
  3: "supervisor.layer3",
  4: "supervisor.layer4",
};

/** A SAGA layer's name in the UI's language. */
export function layerLabel(layer: number): string {
  const key = LAYER_KEYS[layer];
  return key ? i18n.t(key) : i18n.t("supervisor.layerN", { n: layer });
}

const CHECKPOINT_KEYS: Readonly<Record<string, ParseKeys>> = {
  "CP-1": "supervisor.checkpointTitle.cp1",
  "CP-2": "supervisor.checkpointTitle.cp2",
  "CP-3": "supervisor.checkpointTitle.cp3",
  "CP-4": "supervisor.checkpointTitle.cp4",
  "CP-5": "supervisor.checkpointTitle.cp5",
  "CP-6": "supervisor.checkpointTitle.cp6",
  "CP-7": "supervisor.checkpointTitle.cp7",
};

/** A checkpoint's title in the UI's language (the server's English title for one this UI does not know). */
export function checkpointTitle(checkpoint: string, serverTitle: string): string {
  const key = CHECKPOINT_KEYS[checkpoint];
  return key ? i18n.t(key) : serverTitle;
}

export function findingsByCheckpoint(findings: readonly SupervisorFinding[]): [string, SupervisorFinding[]][] {
  const groups = new Map<string, SupervisorFinding[]>();
  for (const f of findings) groups.set(f.checkpoint, [...(groups.get(f.checkpoint) ?? []), f]);
  return [...groups.entries()];
}

/** Checkpoint marks by the phase they ran in (each phase's list in order). */
export function checkpointsByPhase(marks: readonly CheckpointMark[]): Partial<Record<PhaseName, CheckpointMark[]>> {
  const out: Partial<Record<PhaseName, CheckpointMark[]>> = {};
  for (const m of marks) out[m.phase] = [...(out[m.phase] ?? []), m];
  return out;
}

export interface SupervisorDecisions {
  readonly dismissed: readonly string[];
  readonly adopted: readonly string[];
}

export const NO_DECISIONS: SupervisorDecisions = { dismissed: [], adopted: [] };

export function toggleDecision(d: SupervisorDecisions, kind: keyof SupervisorDecisions, id: string): SupervisorDecisions {
  const list = d[kind];
  return { ...d, [kind]: list.includes(id) ? list.filter((x) => x !== id) : [...list, id] };
}

export function decisionCount(d: SupervisorDecisions): number {
  return d.dismissed.length + d.adopted.length;
}

export function withDecisions(input: UserInput, d: SupervisorDecisions): UserInput {
  return {
    ...input,
    ...(d.dismissed.length ? { dismissed_findings: [...d.dismissed] } : {}),
    ...(d.adopted.length ? { adopted_constraints: [...d.adopted] } : {}),
  };
}

/** "h1, h2, h3 and 4 more" */
export function listIds(ids: readonly string[], shown = 3): string {
  if (ids.length <= shown) return ids.join(", ");
  return i18n.t("supervisor.andMore", { ids: ids.slice(0, shown).join(", "), count: ids.length - shown });
}
