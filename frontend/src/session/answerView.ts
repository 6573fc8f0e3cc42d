/**
 * What the Answer tab shows, as pure functions of the AnswerPack (GET /answer.json): the compliance
 * markers (a violation is never shown as a pass), the evidence trace and its safe link, the Solve
 * convergence line and the methodology lines. No React, no fetching.
 */
import type { ParseKeys } from "i18next";
import type { Schemas } from "../api/client";
import { currentLanguage, i18n } from "../i18n/i18n";

export type AnswerPack = Schemas["AnswerPackOut"];
export type ComplianceCheck = Schemas["ComplianceCheckOut"];
export type EvidenceItem = Schemas["EvidenceItemOut"];
export type Tone = "emerald" | "rose" | "amber" | "slate";

export interface VerdictMark {
  symbol: string;
  label: string;
  tone: Tone;
}

const MARKS: Record<ComplianceCheck["verdict"], { symbol: string; label: ParseKeys; tone: Tone }> = {
  pass: { symbol: "✓", label: "answer.pass", tone: "emerald" },
  violation: { symbol: "✗", label: "answer.violation", tone: "rose" },
  unclear: { symbol: "?", label: "answer.unclear", tone: "amber" },
};

export function verdictMark(verdict: ComplianceCheck["verdict"]): VerdictMark {
  const mark = MARKS[verdict];
  return { ...mark, label: i18n.t(mark.label) };
}

export function complianceHeadline(compliance: AnswerPack["compliance"]): { text: string; tone: Tone } {
  const total = compliance.checks.length;
  const revised = compliance.revisions ? i18n.t("answer.afterRevisions", { count: compliance.revisions }) : "";
  if (total === 0) return { text: i18n.t("answer.noConstraints"), tone: "slate" };
  if (compliance.status === "violation") {
    const broken = compliance.checks.filter((c) => c.verdict === "violation").length;
    return { text: i18n.t("answer.violates", { broken, count: total, revised }), tone: "rose" };
  }
  if (compliance.status === "unverified") return { text: i18n.t("answer.unverified", { count: total, revised }), tone: "amber" };
  return { text: i18n.t("answer.allPassed", { count: total, revised }), tone: "emerald" };
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
  const claim = item.claim_id ? i18n.t("answer.traceClaim", { id: item.claim_id.slice(0, 8) }) : "";
  return [claim, item.trace].filter(Boolean).join(" · ");
}

export function convergenceText(solve: AnswerPack["solve"]): string {
  const unresolved = solve.unresolved_high_risks;
  const tail = unresolved ? i18n.t("answer.unresolvedRisks", { count: unresolved }) : "";
  return `${i18n.t(`answer.convergence.${solve.status}`)}${tail}`;
}

export function methodologyLines(pack: AnswerPack): { label: string; value: string }[] {
  const m = pack.methodology;
  const s = pack.solve;
  const list = (items: readonly string[]) => items.join(i18n.t("lineage.listSeparator")) || i18n.t("answer.none");
  const spend = [
    i18n.t("answer.spendTokens", { tokens: m.spend.tokens.toLocaleString(currentLanguage()) }),
    `$${m.spend.cost_usd.toFixed(4)}`,
    i18n.t("answer.spendCalls", { count: m.spend.calls }),
    i18n.t("answer.spendRounds", { count: m.rounds }),
  ].join(" · ");
  return [
    { label: i18n.t("answer.sourceDomains"), value: list(m.domains) },
    { label: i18n.t("answer.operators"), value: list(m.operators) },
    { label: i18n.t("answer.models"), value: m.models.join(", ") + (pack.offline ? i18n.t("answer.offlineModels") : "") },
    ...m.scoring.map((text) => ({ label: i18n.t("answer.scoring"), value: text })),
    { label: i18n.t("answer.spend"), value: spend },
    { label: i18n.t("answer.solve"), value: i18n.t("answer.solveValue", { attempts: i18n.t("answer.attempts", { count: s.attempts }), rounds: i18n.t("answer.outerRounds", { count: s.outer_rounds }), convergence: convergenceText(s) }) },
    ...s.constraints_added.map((text) => ({ label: i18n.t("answer.constraintFromRisk"), value: text })),
    ...m.supervisor_findings.map((text) => ({ label: i18n.t("answer.supervisorFinding"), value: text })),
  ];
}

export type SessionTab = "answer" | "now" | "graph" | "supervisor" | "document";

/** The Answer tab comes first once the session is finished; before that it does not exist. */
export function sessionTabs(finished: boolean): SessionTab[] {
  return finished ? ["answer", "now", "graph", "supervisor", "document"] : ["now", "graph", "supervisor", "document"];
}

export const answerJsonUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/answer.json`;
export const answerMarkdownUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/answer`;
