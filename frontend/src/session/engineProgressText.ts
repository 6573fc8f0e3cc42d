/** The words around an engine stage's progress bar: what runs, and how far (tested), in the UI's language. */
import type { ParseKeys } from "i18next";
import type { Schemas } from "../api/client";
import { i18n } from "../i18n/i18n";

type EngineStage = Schemas["EngineStage"];

export interface EngineProgressLike {
  readonly stage: string;
  readonly done: number;
  readonly total: number;
  readonly failed: number;
}

// Typed over the API's enum: a stage the backend adds fails the type check here until it has words.
const STAGE_WORK: Readonly<Record<EngineStage, ParseKeys>> = {
  frame: "engine.frame",
  biso: "engine.biso",
  search: "engine.search",
  score: "engine.score",
  mapping_review: "engine.mapping_review",
  suggested_domains: "engine.suggested_domains",
  verify: "engine.verify",
  red_team: "engine.red_team",
  solve: "engine.solve",
};

export function engineProgressText(p: EngineProgressLike): { label: string; count: string } {
  // `stage` stays a string: a page open across a server upgrade may meet a stage it has no words for.
  const label = Object.hasOwn(STAGE_WORK, p.stage) ? i18n.t(STAGE_WORK[p.stage as EngineStage]) : i18n.t("engine.other", { stage: p.stage });
  const numbers = { done: p.done, total: p.total, failed: p.failed };
  return { label, count: p.failed > 0 ? i18n.t("engine.countFailed", numbers) : i18n.t("engine.count", numbers) };
}
