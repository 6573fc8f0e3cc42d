/**
 * Pure validation of the five reviews, mirroring the server (backend/forge/core/review/inputs.py and
 * the request model's limits in backend/forge/api/schemas/sessions.py): a draft that passes here is one the
 * server accepts, and the body is built here, once. Messages use the screen's words and 1-based
 * numbers ("claim 1"), because that is what the person sees.
 *
 * The limits are the request model's, read from `REQUEST_LIMITS` (generated from the OpenAPI
 * document by `make api-client`), never copied: a limit changed on the server changes here.
 */
import { i18n } from "../../i18n/i18n";
import { MAX_POOL_STARS } from "./poolStars";
import { memoryDecisionFields, type MemoryChoice } from "../../memory/describeMemory";
import type { UserInput } from "../../api/client";
import { REQUEST_LIMITS } from "../../api/requestLimits";
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

const REVIEW = REQUEST_LIMITS.UserInput;
/** Items the server takes in each list of short texts the person adds. */
export const MAX_ADDED_ASSUMPTIONS = REVIEW.added_assumptions.maxItems;
export const MAX_ADDED_REFRAMINGS = REVIEW.added_reframings.maxItems;
export const MAX_SUGGESTED_DOMAINS = REVIEW.suggested_domains.maxItems;
/** Longest feedback, reason or qualification text the server takes (one limit on the server, checked here). */
export const MAX_TEXT_CHARS = Math.min(
  REQUEST_LIMITS.ClaimFeedbackIn.feedback.maxLength,
  REQUEST_LIMITS.ClaimVerdictIn.reason.maxLength,
  REQUEST_LIMITS.ClaimVerdictIn.qualification.maxLength,
);
/** Longest user insight the server takes. */
export const MAX_INSIGHT_CHARS = REVIEW.user_insight.maxLength;
/** Evidence URLs the server takes with an insight, and the longest URL. */
export const MAX_EVIDENCE_URLS = REVIEW.user_evidence_urls.maxItems;
export const MAX_EVIDENCE_URL_CHARS = REVIEW.user_evidence_urls.items.maxLength;

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

/** The longest assumption, reframing or domain the server takes. */
export const MAX_ITEM_CHARS = Math.min(
  REVIEW.added_assumptions.items.maxLength,
  REVIEW.added_reframings.items.maxLength,
  REVIEW.suggested_domains.items.maxLength,
);

type ItemKind = "assumption" | "reframing" | "domain";

function tooLong(items: readonly string[], what: ItemKind): string[] {
  const key = ({ assumption: "validate.assumptionTooLong", reframing: "validate.reframingTooLong", domain: "validate.domainTooLong" } as const)[what];
  return items.filter((item) => item.length > MAX_ITEM_CHARS).map((item) => i18n.t(key, { item: item.slice(0, 40), length: item.length, max: MAX_ITEM_CHARS }));
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
  /** CP-1: constraints the person drops (null) or relaxes (the looser wording), by constraint index. */
  readonly constraintChanges?: Readonly<Record<number, string | null>>;
}

/** The longest looser wording of a constraint the server takes. */
export const MAX_RELAXED_CHARS = REQUEST_LIMITS.ConstraintChangeIn.relaxed_to.maxLength;

type ConstraintChangeBody = NonNullable<UserInput["constraint_changes"]>;

/** What the person must fix before the conflicts can go to the server: a conflict none of whose
 * constraints is dropped or relaxed, a relaxed wording left empty or too long. */
function conflictErrors(changes: Readonly<Record<number, string | null>>, payload: DecomposePayload): string[] {
  const errors: string[] = [];
  for (const conflict of payload.constraint_conflicts ?? []) {
    if (!conflict.indices.some((i) => i in changes)) {
      const a = conflict.indices[0] ?? 0;
      const b = conflict.indices.at(-1) ?? a;
      errors.push(i18n.t("validate.conflictUnresolved", { a: a + 1, b: b + 1 }));
    }
  }
  for (const [index, text] of Object.entries(changes)) {
    const n = Number(index) + 1;
    if (text !== null && text.trim() === "") errors.push(i18n.t("validate.relaxEmpty", { n }));
    if (text !== null && text.trim().length > MAX_RELAXED_CHARS) {
      errors.push(i18n.t("validate.relaxTooLong", { n, length: text.trim().length, max: MAX_RELAXED_CHARS }));
    }
  }
  return errors;
}

/** The constraint_changes field of the review: present only when the person changed a constraint. */
function constraintChangeFields(changes: Readonly<Record<number, string | null>>): { constraint_changes?: ConstraintChangeBody } {
  const body = Object.entries(changes)
    .map(([index, text]) => (text === null ? { index: Number(index) } : { index: Number(index), relaxed_to: text.trim() }))
    .sort((a, b) => a.index - b.index);
  return body.length ? { constraint_changes: body } : {};
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
    errors.push(i18n.t("validate.selectReframing"));
  }
  const both = confirmed.filter((i) => rejected.includes(i));
  if (both.length) {
    errors.push(i18n.t("validate.assumptionBoth", { n: ordinals(both) }));
  }
  const badReframings = outOfRange(selected, payload.reframings.length);
  if (badReframings.length) errors.push(i18n.t("validate.reframingUnknown", { n: ordinals(badReframings) }));
  const badAssumptions = outOfRange(sortedUnique([...confirmed, ...rejected]), payload.assumptions.length);
  if (badAssumptions.length) errors.push(i18n.t("validate.assumptionUnknown", { n: ordinals(badAssumptions) }));
  if (addedAssumptions.length > MAX_ADDED_ASSUMPTIONS) errors.push(i18n.t("validate.tooManyAssumptions", { max: MAX_ADDED_ASSUMPTIONS }));
  if (addedReframings.length > MAX_ADDED_REFRAMINGS) errors.push(i18n.t("validate.tooManyReframings", { max: MAX_ADDED_REFRAMINGS }));
  errors.push(...tooLong(addedAssumptions, "assumption"), ...tooLong(addedReframings, "reframing"));
  const changes = draft.constraintChanges ?? {};
  errors.push(...conflictErrors(changes, payload));

  return result(errors, {
    type: "decompose_review",
    selected_reframings: selected,
    confirmed_assumptions: confirmed,
    rejected_assumptions: rejected,
    added_assumptions: addedAssumptions,
    added_reframings: addedReframings,
    ...memoryDecisionFields(draft.memoryChoices ?? {}, payload.memory ?? []),
    ...constraintChangeFields(changes),
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
    errors.push(i18n.t("validate.starOne"));
  }
  if (fromPool.length > MAX_POOL_STARS) errors.push(i18n.t("validate.tooManyStars", { max: MAX_POOL_STARS }));
  const bad = outOfRange(starred, payload.analogies.length);
  if (bad.length) errors.push(i18n.t("validate.analogyUnknown", { n: ordinals(bad) }));
  if (domains.length > MAX_SUGGESTED_DOMAINS) errors.push(i18n.t("validate.tooManyDomains", { max: MAX_SUGGESTED_DOMAINS }));
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
      errors.push(i18n.t("validate.claimUnknown", { n: index + 1 }));
    } else if (text.length > MAX_TEXT_CHARS) {
      errors.push(i18n.t("validate.feedbackTooLong", { n: index + 1, length: text.length, max: MAX_TEXT_CHARS }));
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
      errors.push(i18n.t("validate.chooseVerdict", { n }));
      continue;
    }
    const body: VerdictBody = { claim_index: claim.index, verdict: v.verdict };
    if (reason.length > MAX_TEXT_CHARS) errors.push(i18n.t("validate.reasonTooLong", { n, max: MAX_TEXT_CHARS }));
    if (reason) body.reason = reason;
    if (v.verdict === "qualify") {
      if (!qualification) errors.push(i18n.t("validate.qualificationMissing", { n }));
      else if (qualification.length > MAX_TEXT_CHARS) errors.push(i18n.t("validate.qualificationTooLong", { n, max: MAX_TEXT_CHARS }));
      body.qualification = qualification;
    }
    if (v.verdict === "merge") {
      if (v.mergeWith === null || v.mergeWith === claim.index || !indices.has(v.mergeWith)) {
        errors.push(i18n.t("validate.mergeMissing", { n }));
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
  if (decision === null) return { ok: false, errors: [i18n.t("validate.chooseDecision")] };
  if (payload.max_rounds_reached && NEW_ROUND_DECISIONS.includes(decision)) {
    errors.push(i18n.t("validate.lastRound"));
  }
  const input: UserInput = { type: "build_decision", decision };
  if (decision === "deep_dive") {
    if (!payload.graph.nodes.some((node) => node.id === draft.deepDiveClaimId)) {
      errors.push(i18n.t("validate.chooseDeepDive"));
    }
    input.deep_dive_claim_id = draft.deepDiveClaimId;
  }
  const curiosityId = draft.curiosityId ?? "";
  if (curiosityId && NEW_ROUND_DECISIONS.includes(decision)) {
    if (!(payload.curiosity ?? []).some((item) => item.id === curiosityId)) {
      errors.push(i18n.t("validate.curiosityUnknown"));
    }
    input.curiosity_id = curiosityId;
  }
  if (decision === "add_insight") {
    const insight = draft.insight.trim();
    const pending = draft.pendingEvidenceUrl.trim();
    const urls = cleanTexts(pending ? [...draft.evidenceUrls, pending] : draft.evidenceUrls);
    if (!insight) errors.push(i18n.t("validate.insightMissing"));
    else if (insight.length > MAX_INSIGHT_CHARS) errors.push(i18n.t("validate.insightTooLong", { max: MAX_INSIGHT_CHARS }));
    if (urls.length > MAX_EVIDENCE_URLS) errors.push(i18n.t("validate.tooManyUrls", { max: MAX_EVIDENCE_URLS }));
    for (const url of urls) {
      if (!isHttpUrl(url)) errors.push(i18n.t(url === pending ? "validate.pendingUrlInvalid" : "validate.urlInvalid", { url }));
    }
    input.user_insight = insight;
    input.user_evidence_urls = urls;
  }
  return result(errors, input);
}
