/**
 * Pure helpers for remembered hypotheses (seed 004): how their confidence (C) reads, the C history a
 * plot draws, the verdict history in the product's words, the sessions a hypothesis came from, and
 * the decompose review's pin / dismiss choices as request fields. No React, no fetching.
 */
import type { ParseKeys } from "i18next";
import type { Schemas } from "../api/client";
import { i18n } from "../i18n/i18n";

export type RememberedHypothesis = Schemas["RememberedHypothesisOut"];
export type UsageEntry = Schemas["UsageOut"];
export type OfferedHypothesis = Schemas["RememberedHypothesisView"];
export type MemoryChoice = "accept" | "dismiss";

/** C as a whole percentage ("37%"). */
export function percent(c: number): string {
  return `${Math.round(c * 100)}%`;
}

/** Every C the hypothesis has had, oldest first: the C before its first use, then the C after each. */
export function cHistory(h: Pick<RememberedHypothesis, "confidence" | "usage_history">): number[] {
  const first = h.usage_history[0];
  if (first === undefined) return [h.confidence];
  return [first.c_before, ...h.usage_history.map((u) => u.c_after)];
}

/** SVG polyline points for `values` (C in 0..1) in a width × height box, with `pad` pixels inside the edges. */
export function sparklinePoints(values: readonly number[], width: number, height: number, pad = 2): string {
  if (values.length === 0) return "";
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const y = (c: number) => pad + (1 - Math.min(1, Math.max(0, c))) * (height - 2 * pad);
  const only = values.length === 1 ? values[0] : undefined;
  if (only !== undefined) return `${pad},${round(y(only))} ${width - pad},${round(y(only))}`;
  return values.map((c, i) => `${round(pad + i * step)},${round(y(c))}`).join(" ");
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** The C history in words, for a screen reader: "30% → 37% → 43%". */
export function cHistoryLabel(values: readonly number[]): string {
  return values.map(percent).join(" → ");
}

const OUTCOME_WORDS: Record<UsageEntry["outcome"], ParseKeys> = {
  created: "memory.created",
  supported: "memory.supported",
  contradicted: "memory.contradicted",
  refined: "memory.refined",
  repeated: "memory.repeated",
  query_match: "memory.queryMatch",
  mutual_support: "memory.mutualSupport",
  conflict: "memory.conflict",
};

/** One verdict of the history, in the product's words. */
export function verdictWords(outcome: UsageEntry["outcome"]): string {
  return i18n.t(OUTCOME_WORDS[outcome]);
}

/** One change of the history with the similarity its rule used: "Retrieved by a new question (similarity 0.84)". */
export function changeWords(u: Pick<UsageEntry, "outcome" | "similarity">): string {
  const similarity = u.similarity === null || u.similarity === undefined ? "" : i18n.t("memory.similarity", { value: u.similarity.toFixed(2) });
  return verdictWords(u.outcome) + similarity;
}

/** Where each C of `values` sits in the plot (the same box as `sparklinePoints`). */
export function sparklineDots(values: readonly number[], width: number, height: number, pad = 2): { x: number; y: number }[] {
  return sparklinePoints(values, width, height, pad)
    .split(" ")
    .filter(Boolean)
    .slice(0, values.length)
    .map((p) => {
      const [x, y] = p.split(",").map(Number);
      return { x: x ?? 0, y: y ?? 0 };
    });
}

/** "Supported 2 times, contradicted 1 time" (in the UI's language). */
export function evidenceWords(support: number, contradiction: number): string {
  return i18n.t("memory.evidence", { supported: i18n.t("memory.times", { count: support }), contradicted: i18n.t("memory.times", { count: contradiction }) });
}

export interface SessionRef {
  readonly sessionId: string;
  readonly question: string;
}

/** The sessions a hypothesis came from and was judged in, each once, the origin first. */
export function sessionsOf(h: Pick<RememberedHypothesis, "origin_session_id" | "origin_question" | "usage_history">): SessionRef[] {
  const seen = new Map<string, string>([[h.origin_session_id, h.origin_question]]);
  for (const u of h.usage_history) if (!seen.has(u.session_id)) seen.set(u.session_id, u.context);
  return [...seen].map(([sessionId, question]) => ({ sessionId, question }));
}

/** The query string of a memory search: the trimmed text (none when blank) and C floor. */
export function memorySearchParams(text: string, minC: number, limit: number, offset: number) {
  const q = text.trim();
  return { ...(q ? { q } : {}), min_c: minC, limit, offset };
}

/**
 * The decompose review's memory fields: ids the person pinned and dismissed, among those offered
 * (a choice for an id no longer offered is dropped). Nothing offered: no fields at all.
 */
export function memoryDecisionFields(
  choices: Readonly<Record<string, MemoryChoice>>,
  offered: readonly Pick<OfferedHypothesis, "episode_id">[],
): { accepted_memories?: string[]; dismissed_memories?: string[] } {
  if (offered.length === 0) return {};
  const ids = offered.map((o) => o.episode_id);
  return {
    accepted_memories: ids.filter((id) => choices[id] === "accept"),
    dismissed_memories: ids.filter((id) => choices[id] === "dismiss"),
  };
}
