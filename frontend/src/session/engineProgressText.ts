/** The words around an engine stage's progress bar: what runs, and how far (pure, tested). */
export interface EngineProgressLike {
  readonly stage: string;
  readonly done: number;
  readonly total: number;
  readonly failed: number;
}

const STAGE_WORK: Readonly<Record<string, string>> = {
  frame: "Framing the problem",
  biso: "Transferring ideas from distant domains",
  search: "Refining, combining and opposing the best hypotheses",
  mapping_review: "Reviewing the mapping tables that passed the rules",
  suggested_domains: "Exploring the domains you suggested",
  verify: "Verifying the claims independently",
  red_team: "The supervisor's red team is challenging the best ideas",
  solve: "Solving: planning, auditing risks and checking your constraints",
};

export function engineProgressText(p: EngineProgressLike): { label: string; count: string } {
  const label = STAGE_WORK[p.stage] ?? `Engine: ${p.stage}`;
  const failed = p.failed > 0 ? `, ${p.failed} failed` : "";
  return { label, count: `${p.done} of ${p.total} model calls${failed}` };
}
