/**
 * Starring from the whole hypothesis pool at the explore review (pure, tested): the pool grouped by
 * source domain, best first within a domain, domains with passed hypotheses first; and the star toggle.
 * Only hypotheses whose mapping table passed the gate can be starred (the others are shown for
 * reference): the API turns each star into an analogy SYNTHESIZE builds on.
 */
import { REQUEST_LIMITS } from "../../api/requestLimits";
import type { PoolHypothesis } from "./hypothesisLineage";

/** Pool hypotheses one explore review may star (the request model's `starred_hypotheses` limit). */
export const MAX_POOL_STARS = REQUEST_LIMITS.UserInput.starred_hypotheses.maxItems;

export interface DomainGroup {
  readonly domainId: string;
  readonly domainName: string;
  readonly hypotheses: readonly PoolHypothesis[];
  readonly passed: number;
}

export function groupPoolByDomain(pool: readonly PoolHypothesis[]): DomainGroup[] {
  const groups = new Map<string, PoolHypothesis[]>();
  for (const h of pool) groups.set(h.domain_id, [...(groups.get(h.domain_id) ?? []), h]);
  return [...groups.values()]
    .map((items) => {
      const sorted = [...items].sort((a, b) => b.gate.mapping_score - a.gate.mapping_score || a.id.localeCompare(b.id));
      const first = items[0] as PoolHypothesis; // a group exists only once it holds a hypothesis
      return {
        domainId: first.domain_id,
        domainName: first.domain_name,
        hypotheses: sorted,
        passed: sorted.filter((h) => h.gate.status === "passed").length,
      };
    })
    .sort((a, b) => b.passed - a.passed || (b.hypotheses[0]?.gate.mapping_score ?? 0) - (a.hypotheses[0]?.gate.mapping_score ?? 0) || a.domainName.localeCompare(b.domainName));
}

export function canStar(h: PoolHypothesis): boolean {
  return h.gate.status === "passed";
}

/** The starred ids after a click: toggled, never more than MAX_POOL_STARS, order kept. */
export function toggleStar(starred: readonly string[], id: string): string[] {
  if (starred.includes(id)) return starred.filter((s) => s !== id);
  return starred.length >= MAX_POOL_STARS ? [...starred] : [...starred, id];
}
