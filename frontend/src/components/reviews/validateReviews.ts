/**
 * Pure validation of the five reviews, mirroring the server (backend/forge/core/review_inputs.py and
 * the request model's limits in backend/forge/api/schemas.py): a draft that passes here is one the
 * server accepts, and the body is built here, once. Messages use the screen's words and 1-based
 * numbers ("claim 1"), because that is what the person sees.
 */
import { MAX_POOL_STARS } from "./poolStars";
import { memoryDecisionFields, type MemoryChoice } from "../../memory/describeMemory";
import type { UserInput } from "../../api/client";
import type {
  BuildDecisionType,
  BuildPayload,
  ClaimsPayload,
  DecomposePayload,
  ExplorePayload,
  ReviewValidation,
  VerdictsPayload,
  VerdictType,
} from "./reviewTypes";

/** Items the server takes in each list of short texts (added assumptions, reframings, domains). */
export const MAX_ADDED_ITEMS = 10;
/** Longest feedback, reason or qualification text the server takes. */
export const MAX_TEXT_CHARS = 4000;
/** Longest user insight the server takes. */
export const MAX_INSIGHT_CHARS = 8000;
/** Evidence URLs the server takes with an insight. */
export const MAX_EVIDENCE_URLS = 10;

/** True for an absolute http(s) URL with a host — the only sources shown as links or sent as evidence. */
export function isHttpUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

function result(errors: string[], input: UserInput): ReviewValidation {
  return errors.length ? { ok: false, errors } : { ok: true, input };
}

function sortedUnique(indices: readonly number[]): number[] {
  return [...new Set(indices)].sort((a, b) => a - b);
}

function cleanTexts(items: readonly string[]): string[] {
  return items.map((s) => s.trim()).filter((s) => s !== "");
}

/** A list as it will be sent: the added items plus the text typed in its field but not added. */
function withPending(items: readonly string[], pending: string): string[] {
  return cleanTexts([...items, pending]);
}

/** The longest item a list field accepts (TextListEditor's default `maxLength`). */
export const MAX_ITEM_CHARS = 300;

function tooLong(items: readonly string[], what: string): string[] {
  return items.filter((item) => item.length > MAX_ITEM_CHARS).map((item) => `The ${what} “${item.slice(0, 40)}…” is ${item.length} characters; shorten it to ${MAX_ITEM_CHARS}.`);
}

function outOfRange(indices: readonly number[], count: number): number[] {
  return indices.filter((i) => !Number.isInteger(i) || i < 0 || i >= count);
}

function ordinals(indices: readonly number[]): string {
  return indices.map((i) => i + 1).join(", ");
}

// ---------------------------------------------------------------------------------------------
// DECOMPOSE

export interface DecomposeDraft {
  readonly confirmedAssumptions: readonly number[];
  readonly rejectedAssumptions: readonly number[];
  readonly addedAssumptions: readonly string[];
  readonly selectedReframings: readonly number[];
  readonly addedReframings: readonly string[];
  /** Texts typed in the "add" fields but not added: sent with their lists, never dropped. */
  readonly pendingAssumption: string;
  readonly pendingReframing: string;
  /** Remembered hypotheses pinned or dismissed, by episode id (absent in drafts saved before memory). */
  readonly memoryChoices?: Readonly<Record<string, MemoryChoice>>;
}

export const EMPTY_DECOMPOSE_DRAFT: DecomposeDraft = {
  confirmedAssumptions: [],
  rejectedAssumptions: [],
  addedAssumptions: [],
  selectedReframings: [],
  addedReframings: [],
  pendingAssumption: "",
  pendingReframing: "",
};

export function validateDecompose(draft: DecomposeDraft, payload: DecomposePayload): ReviewValidation {
  const errors: string[] = [];
  const selected = sortedUnique(draft.selectedReframings);
  const confirmed = sortedUnique(draft.confirmedAssumptions);
  const rejected = sortedUnique(draft.rejectedAssumptions);
  const addedAssumptions = withPending(draft.addedAssumptions, draft.pendingAssumption);
  const addedReframings = withPending(draft.addedReframings, draft.pendingReframing);

  if (selected.length === 0 && addedReframings.length === 0) {
    errors.push("Select at least one reframing, or add your own: the exploration starts from the reframings you choose.");
  }
  const both = confirmed.filter((i) => rejected.includes(i));
  if (both.length) {
    errors.push(`Assumption ${ordinals(both)} is both confirmed and rejected; choose one.`);
  }
  const badReframings = outOfRange(selected, payload.reframings.length);
  if (badReframings.length) errors.push(`Reframing ${ordinals(badReframings)} is not part of this review.`);
  const badAssumptions = outOfRange(sortedUnique([...confirmed, ...rejected]), payload.assumptions.length);
  if (badAssumptions.length) errors.push(`Assumption ${ordinals(badAssumptions)} is not part of this review.`);
  if (addedAssumptions.length > MAX_ADDED_ITEMS) errors.push(`Add at most ${MAX_ADDED_ITEMS} assumptions.`);
  if (addedReframings.length > MAX_ADDED_ITEMS) errors.push(`Add at most ${MAX_ADDED_ITEMS} reframings.`);
  errors.push(...tooLong(addedAssumptions, "assumption"), ...tooLong(addedReframings, "reframing"));

  return result(errors, {
    type: "decompose_review",
    selected_reframings: selected,
    confirmed_assumptions: confirmed,
    rejected_assumptions: rejected,
    added_assumptions: addedAssumptions,
    added_reframings: addedReframings,
    ...memoryDecisionFields(draft.memoryChoices ?? {}, payload.memory ?? []),
  });
}

// ---------------------------------------------------------------------------------------------
// EXPLORE

export interface ExploreDraft {
  readonly starredAnalogies: readonly number[];
  /** Pool hypothesis ids starred (absent in drafts saved before the pool could be starred). */
  readonly starredHypotheses?: readonly string[];
  readonly suggestedDomains: readonly string[];
  /** A domain typed but not added: sent with the others, never dropped. */
  readonly pendingDomain: string;
}

export const EMPTY_EXPLORE_DRAFT: ExploreDraft = { starredAnalogies: [], starredHypotheses: [], suggestedDomains: [], pendingDomain: "" };

export function validateExplore(draft: ExploreDraft, payload: ExplorePayload): ReviewValidation {
  const errors: string[] = [];
  const starred = sortedUnique(draft.starredAnalogies);
  const fromPool = [...new Set(draft.starredHypotheses ?? [])];
  const domains = withPending(draft.suggestedDomains, draft.pendingDomain);
  if (starred.length === 0 && fromPool.length === 0) {
    errors.push("Star at least one analogy or hypothesis of the pool: synthesis builds its claims on the starred ones.");
  }
  if (fromPool.length > MAX_POOL_STARS) errors.push(`Star at most ${MAX_POOL_STARS} hypotheses of the pool.`);
  const bad = outOfRange(starred, payload.analogies.length);
  if (bad.length) errors.push(`Analogy ${ordinals(bad)} is not part of this review.`);
  if (domains.length > MAX_ADDED_ITEMS) errors.push(`Suggest at most ${MAX_ADDED_ITEMS} domains.`);
  errors.push(...tooLong(domains, "domain"));
  const body = { type: "explore_review" as const, starred_analogies: starred, suggested_domains: domains };
  return result(errors, fromPool.length ? { ...body, starred_hypotheses: fromPool } : body);
}

// ---------------------------------------------------------------------------------------------
// CLAIMS (feedback before validation)

export interface ClaimsDraft {
  /** Feedback text by claim index; blank entries are not sent. */
  readonly feedback: Readonly<Record<number, string>>;
}

export const EMPTY_CLAIMS_DRAFT: ClaimsDraft = { feedback: {} };

export function validateClaims(draft: ClaimsDraft, payload: ClaimsPayload): ReviewValidation {
  const errors: string[] = [];
  const known = new Set(payload.claims.map((c) => c.index));
  const claimFeedback: { claim_index: number; feedback: string }[] = [];
  const entries = Object.entries(draft.feedback)
    .map(([key, text]) => [Number(key), text.trim()] as const)
    .filter(([, text]) => text !== "")
    .sort(([a], [b]) => a - b);
  for (const [index, text] of entries) {
    if (!known.has(index)) {
      errors.push(`Claim ${index + 1} is not part of this review.`);
    } else if (text.length > MAX_TEXT_CHARS) {
      errors.push(`Feedback on claim ${index + 1} is ${text.length} characters long; shorten it to at most ${MAX_TEXT_CHARS}.`);
    } else {
      claimFeedback.push({ claim_index: index, feedback: text });
    }
  }
  return result(errors, { type: "claims_review", claim_feedback: claimFeedback });
}

// ---------------------------------------------------------------------------------------------
// VERDICTS

export interface VerdictDraft {
  readonly verdict: VerdictType | null;
  readonly reason: string;
  readonly qualification: string;
  /** The claim index to merge with (verdict "merge" only). */
  readonly mergeWith: number | null;
}

export const EMPTY_VERDICT: VerdictDraft = { verdict: null, reason: "", qualification: "", mergeWith: null };

export interface VerdictsDraft {
  /** One entry per claim index; claims without an entry have no verdict yet. */
  readonly verdicts: Readonly<Record<number, VerdictDraft>>;
}

export const EMPTY_VERDICTS_DRAFT: VerdictsDraft = { verdicts: {} };

type VerdictBody = NonNullable<UserInput["verdicts"]>[number];

export function validateVerdicts(draft: VerdictsDraft, payload: VerdictsPayload): ReviewValidation {
  const errors: string[] = [];
  const indices = new Set(payload.claims.map((c) => c.index));
  const verdicts: VerdictBody[] = [];
  for (const claim of payload.claims) {
    const n = claim.index + 1;
    const v = draft.verdicts[claim.index] ?? EMPTY_VERDICT;
    const reason = v.reason.trim();
    const qualification = v.qualification.trim();
    if (v.verdict === null) {
      errors.push(`Choose a verdict for claim ${n}.`);
      continue;
    }
    const body: VerdictBody = { claim_index: claim.index, verdict: v.verdict };
    if (reason.length > MAX_TEXT_CHARS) errors.push(`The reason for claim ${n} is longer than ${MAX_TEXT_CHARS} characters.`);
    if (reason) body.reason = reason;
    if (v.verdict === "qualify") {
      if (!qualification) errors.push(`Claim ${n} is qualified: write the qualification (when or where it holds).`);
      else if (qualification.length > MAX_TEXT_CHARS) errors.push(`The qualification of claim ${n} is longer than ${MAX_TEXT_CHARS} characters.`);
      body.qualification = qualification;
    }
    if (v.verdict === "merge") {
      if (v.mergeWith === null || v.mergeWith === claim.index || !indices.has(v.mergeWith)) {
        errors.push(`Claim ${n} is merged: choose another claim of this round to merge it with.`);
      } else {
        body.merge_with_index = v.mergeWith;
      }
    }
    verdicts.push(body);
  }
  return result(errors, { type: "verdicts", verdicts });
}

// ---------------------------------------------------------------------------------------------
// BUILD DECISION

export interface BuildDraft {
  readonly decision: BuildDecisionType | null;
  readonly deepDiveClaimId: string;
  /** A curiosity item (thin region of the graph) as the next round's direction; "" = none. */
  readonly curiosityId?: string;
  readonly insight: string;
  readonly evidenceUrls: readonly string[];
  /** A URL typed in the field but not added with "Add": sent with the others, never dropped. */
  readonly pendingEvidenceUrl: string;
}

export const EMPTY_BUILD_DRAFT: BuildDraft = { decision: null, deepDiveClaimId: "", insight: "", evidenceUrls: [], pendingEvidenceUrl: "" };

/** Decisions that start another round — refused by the server once the last round is reached. */
export const NEW_ROUND_DECISIONS: readonly BuildDecisionType[] = ["continue", "deep_dive"];

export function validateBuild(draft: BuildDraft, payload: BuildPayload): ReviewValidation {
  const errors: string[] = [];
  const decision = draft.decision;
  if (decision === null) return { ok: false, errors: ["Choose what to do next."] };
  if (payload.max_rounds_reached && NEW_ROUND_DECISIONS.includes(decision)) {
    errors.push("This was the last allowed round: resolve the session or add an insight instead.");
  }
  const input: UserInput = { type: "build_decision", decision };
  if (decision === "deep_dive") {
    if (!payload.graph.nodes.some((node) => node.id === draft.deepDiveClaimId)) {
      errors.push("Choose the claim of the knowledge graph to deep-dive into.");
    }
    input.deep_dive_claim_id = draft.deepDiveClaimId;
  }
  const curiosityId = draft.curiosityId ?? "";
  if (curiosityId && NEW_ROUND_DECISIONS.includes(decision)) {
    if (!(payload.curiosity ?? []).some((item) => item.id === curiosityId)) {
      errors.push("Choose one of the offered directions, or none.");
    }
    input.curiosity_id = curiosityId;
  }
  if (decision === "add_insight") {
    const insight = draft.insight.trim();
    const pending = draft.pendingEvidenceUrl.trim();
    const urls = cleanTexts(pending ? [...draft.evidenceUrls, pending] : draft.evidenceUrls);
    if (!insight) errors.push("Write the insight to add to the knowledge graph.");
    else if (insight.length > MAX_INSIGHT_CHARS) errors.push(`The insight is longer than ${MAX_INSIGHT_CHARS} characters.`);
    if (urls.length > MAX_EVIDENCE_URLS) errors.push(`Give at most ${MAX_EVIDENCE_URLS} evidence URLs.`);
    for (const url of urls) {
      const where = url === pending ? " (typed in the evidence field, not added yet — fix or clear it)" : "";
      if (!isHttpUrl(url)) errors.push(`“${url}” is not a web address: evidence URLs must start with http:// or https://${where}.`);
    }
    input.user_insight = insight;
    input.user_evidence_urls = urls;
  }
  return result(errors, input);
}
