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
import type { Schemas, UserInput } from "../api/client";
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
      return f.p_value === null || f.p_value === undefined ? `share ${s} (limit ${t})` : `F ${s}, p ${f.p_value.toPrecision(2)} < ${t}`;
    case "shallow_rewrite":
      return `|Δscore| ${s} ≥ ${t}`;
    case "diversity_collapse":
      return `share ${Math.round(f.statistic * 100)}% ≥ ${Math.round(f.threshold * 100)}%`;
    case "stale_idea":
      return `distance ${s} < ${t}`;
    case "favourite_pattern":
      return `seen in ${s} places (≥ ${t})`;
    case "red_team_challenge":
      return `${s} challenge(s) failed`;
    default:
      return f.statistic ? `${s} case(s)` : "";
  }
}

export const LAYER_LABELS: Readonly<Record<number, string>> = {
  1: "Statistics",
  2: "Red team",
  3: "Pattern memory",
  4: "Domain profile",
};

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
  return `${ids.slice(0, shown).join(", ")} and ${ids.length - shown} more`;
}
