/**
 * Types shared by the five review screens: the props contract, and the payload shapes each screen
 * reads — all derived from the generated OpenAPI types, so a payload change breaks the build here.
 */
import type { Schemas, UserInput } from "../../api/client";
import type { EventOf, PayloadOf, ReviewEventType } from "../../api/events";

export interface ReviewScreenProps<T extends ReviewEventType> {
  /** The review event; its payload is `event.data`. */
  readonly event: EventOf<T>;
  /** Keys the unsent draft in local storage (absent: the draft is not kept across reloads). */
  readonly sessionId?: string;
  /** Sends the review; rejects with an Error whose message is the API's `detail`. */
  readonly onSubmit: (input: UserInput) => Promise<void>;
  /** True while the agent runs or a submit is in flight elsewhere. */
  readonly disabled?: boolean;
}

export type DecomposePayload = PayloadOf<"review_decompose">;
export type ExplorePayload = PayloadOf<"review_explore">;
export type ClaimsPayload = PayloadOf<"review_claims">;
export type VerdictsPayload = PayloadOf<"review_verdicts">;
export type BuildPayload = PayloadOf<"review_build">;

export type ClaimView = ClaimsPayload["claims"][number];
export type EvidenceView = ClaimView["evidence"][number];
export type AnalogyView = ExplorePayload["analogies"][number];
export type GraphNodeView = BuildPayload["graph"]["nodes"][number];

export type VerdictType = Schemas["VerdictType"];
export type BuildDecisionType = Schemas["BuildDecision"];

/** What every validator returns: the exact request body, or what to fix (in the screen's words). */
export type ReviewValidation = { readonly ok: true; readonly input: UserInput } | { readonly ok: false; readonly errors: string[] };
