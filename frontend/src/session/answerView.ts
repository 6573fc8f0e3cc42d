/**
 * What the Answer tab shows, as pure functions of the AnswerPack (GET /answer.json): the compliance
 * markers (a violation is never shown as a pass), the evidence trace and its safe link, the Solve
 * convergence line and the methodology lines. No React, no fetching.
 */
import type { Schemas } from "../api/client";

export type AnswerPack = Schemas["AnswerPackOut"];
export type ComplianceCheck = Schemas["ComplianceCheckOut"];
export type EvidenceItem = Schemas["EvidenceItemOut"];
export type Tone = "emerald" | "rose" | "amber" | "slate";

export interface VerdictMark {
  symbol: string;
  label: string;
  tone: Tone;
}

const MARKS: Record<ComplianceCheck["verdict"], VerdictMark> = {
  pass: { symbol: "✓", label: "Pass", tone: "emerald" },
  violation: { symbol: "✗", label: "Violation", tone: "rose" },
  unclear: { symbol: "?", label: "Unclear", tone: "amber" },
};

export function verdictMark(verdict: ComplianceCheck["verdict"]): VerdictMark {
  return MARKS[verdict];
}

export function complianceHeadline(compliance: AnswerPack["compliance"]): { text: string; tone: Tone } {
  const total = compliance.checks.length;
  const revised = compliance.revisions ? ` after ${compliance.revisions} revision${compliance.revisions === 1 ? "" : "s"}` : "";
  if (total === 0) return { text: "No hard constraint was stated, so none was audited.", tone: "slate" };
  if (compliance.status === "violation") {
    const broken = compliance.checks.filter((c) => c.verdict === "violation").length;
    return { text: `The answer still violates ${broken} of ${total} hard constraint${total === 1 ? "" : "s"}${revised}. Resolve those before acting on it.`, tone: "rose" };
  }
  if (compliance.status === "unverified")
    return { text: `No hard constraint is violated, but some of the ${total} could not be checked${revised}.`, tone: "amber" };
  return { text: `All ${total} hard constraint${total === 1 ? "" : "s"} passed the audit${revised}.`, tone: "emerald" };
}

/** An evidence source as a link only when it is http(s); other sources (the shipped corpus) stay text. */
export function evidenceHref(item: EvidenceItem): string | null {
  if (!item.source) return null;
  try {
    const url = new URL(item.source);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Where the evidence came from: the claim it supports (short id) and how it entered the session. */
export function traceLabel(item: EvidenceItem): string {
  const claim = item.claim_id ? `claim ${item.claim_id.slice(0, 8)}` : "";
  return [claim, item.trace].filter(Boolean).join(" · ");
}

const CONVERGENCE: Record<AnswerPack["solve"]["status"], string> = {
  zero_high_risks: "Converged: the last audit found no high risk.",
  limits_reached: "Stopped at the iteration limits.",
  no_new_constraints: "Stopped: the remaining risks gave no new constraint.",
  failed: "Stopped: a model call failed.",
};

export function convergenceText(solve: AnswerPack["solve"]): string {
  const unresolved = solve.unresolved_high_risks;
  const tail = unresolved ? ` ${unresolved} high risk${unresolved === 1 ? "" : "s"} remain unresolved.` : "";
  return `${CONVERGENCE[solve.status]}${tail}`;
}

export function methodologyLines(pack: AnswerPack): { label: string; value: string }[] {
  const m = pack.methodology;
  const s = pack.solve;
  return [
    { label: "Source domains", value: m.domains.join(", ") || "none" },
    { label: "Operators", value: m.operators.join(", ") || "none" },
    { label: "Models", value: m.models.join(", ") + (pack.offline ? " (offline: deterministic rules, no language model)" : "") },
    { label: "Spend", value: `${m.spend.tokens.toLocaleString("en")} tokens · $${m.spend.cost_usd.toFixed(4)} · ${m.spend.calls} calls · ${m.rounds} round${m.rounds === 1 ? "" : "s"}` },
    { label: "Solve", value: `${s.attempts} plan/audit attempt${s.attempts === 1 ? "" : "s"} over ${s.outer_rounds} outer round${s.outer_rounds === 1 ? "" : "s"}; ${convergenceText(s)}` },
    ...s.constraints_added.map((text) => ({ label: "Constraint from a risk", value: text })),
    ...m.supervisor_findings.map((text) => ({ label: "Supervisor finding", value: text })),
  ];
}

export type SessionTab = "answer" | "now" | "graph" | "supervisor" | "document";

/** The Answer tab comes first once the session is finished; before that it does not exist. */
export function sessionTabs(finished: boolean): SessionTab[] {
  return finished ? ["answer", "now", "graph", "supervisor", "document"] : ["now", "graph", "supervisor", "document"];
}

export const answerJsonUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/answer.json`;
export const answerMarkdownUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/answer`;
