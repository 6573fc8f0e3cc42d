import { useId } from "react";
import { Badge } from "../ui/Badge";
import { TextListEditor } from "../ui/TextListEditor";
import { useReviewDraft } from "../../hooks/useReviewDraft";
import { ReviewForm, ReviewSection, TextArea } from "./ReviewForm";
import type { BuildDecisionType, ReviewScreenProps } from "./reviewTypes";
import { EMPTY_BUILD_DRAFT, MAX_EVIDENCE_URLS, MAX_INSIGHT_CHARS, validateBuild, type BuildDraft } from "./validateReviews";
import { RadioCard } from "../ui/RadioCard";

function shorten(text: string, max = 110): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Review after BUILD: look at the gaps and what failed, then continue, deep-dive, resolve or add an insight. */
export function BuildDecision({ event, sessionId, onSubmit, disabled }: ReviewScreenProps<"review_build">) {
  const payload = event.data;
  const nodes = payload.graph.nodes;
  const [draft, setDraft] = useReviewDraft<BuildDraft>(sessionId, event.id, EMPTY_BUILD_DRAFT);
  const name = useId();
  const round = payload.round + 1;
  const lastRound = payload.max_rounds_reached;

  const options: readonly { value: BuildDecisionType; label: string; help: string; unavailable: string | null }[] = [
    {
      value: "continue",
      label: "Continue",
      help: `Start round ${round + 1}: new claims that build on the graph and avoid what failed.`,
      unavailable: lastRound ? `Round ${round} was the last allowed round, so no new round can start: resolve the session or add an insight.` : null,
    },
    {
      value: "deep_dive",
      label: "Deep dive",
      help: `Start round ${round + 1} focused on one claim of the graph.`,
      unavailable: lastRound
        ? `Round ${round} was the last allowed round, so no new round can start.`
        : nodes.length === 0
          ? "The knowledge graph has no claims to focus on yet."
          : null,
    },
    { value: "resolve", label: "Resolve", help: "Stop here and crystallize the knowledge into a document.", unavailable: null },
    { value: "add_insight", label: "Add an insight", help: "Add your own claim, with evidence, to the graph; then decide again.", unavailable: null },
  ];

  return (
    <ReviewForm
      testId="review-build"
      title={`Round ${round}: what next?`}
      intro={
        <span className="flex flex-wrap items-center gap-2">
          <span>
            The knowledge graph holds {plural(nodes.length, "claim", "claims")} and {plural(payload.graph.edges.length, "link", "links")}.
          </span>
          {lastRound && <Badge tone="amber">last round</Badge>}
        </span>
      }
      submitLabel="Apply decision"
      validate={() => validateBuild(draft, payload)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <ReviewSection title="Gaps" description="What the graph does not cover yet.">
          {payload.gaps.length ? (
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
              {payload.gaps.map((g, i) => (
                <li key={i}>{g}</li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">No gaps were found.</p>
          )}
        </ReviewSection>
        <ReviewSection title="Negative knowledge" description="Claims that were rejected, and why — what does not work.">
          {payload.negative_knowledge.length ? (
            <ul className="space-y-2">
              {payload.negative_knowledge.map((k) => (
                <li key={k.claim_id} className="space-y-1 rounded-lg border border-rose-100 bg-rose-50/40 p-3 text-sm">
                  <p className="text-slate-800">{k.claim_text}</p>
                  <p className="text-slate-700">
                    <span className="font-medium">Why not: </span>
                    {k.reason}
                  </p>
                  <Badge tone="rose">round {k.round + 1}</Badge>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">Nothing has been rejected yet.</p>
          )}
        </ReviewSection>
      </div>

      <ReviewSection title="Decision">
        <fieldset className="min-w-0">
          <legend className="sr-only">What next?</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {options.map((o) => (
              <RadioCard
                key={o.value}
                name={name}
                value={o.value}
                label={o.label}
                help={o.help}
                unavailable={o.unavailable}
                checked={draft.decision === o.value}
                onSelect={() => setDraft((d) => ({ ...d, decision: o.value }))}
              />
            ))}
          </div>
        </fieldset>

        {draft.decision === "deep_dive" && !lastRound && (
          <div className="space-y-1">
            <label htmlFor={`${name}-claim`} className="block text-sm font-medium text-slate-800">
              Claim to deep-dive into<span className="ml-1 text-rose-700" aria-hidden>*</span>
            </label>
            <select
              id={`${name}-claim`}
              required
              value={draft.deepDiveClaimId}
              onChange={(e) => setDraft((d) => ({ ...d, deepDiveClaimId: e.target.value }))}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
            >
              <option value="">Choose a claim…</option>
              {nodes.map((node) => (
                <option key={node.id} value={node.id}>
                  {shorten(node.label)} ({node.status})
                </option>
              ))}
            </select>
          </div>
        )}

        {draft.decision === "add_insight" && (
          <div className="space-y-4">
            <TextArea
              id={`${name}-insight`}
              label="Your insight"
              hint="A claim of your own; it joins the knowledge graph as a user contribution."
              required
              rows={4}
              value={draft.insight}
              onChange={(insight) => setDraft((d) => ({ ...d, insight }))}
              maxChars={MAX_INSIGHT_CHARS}
            />
            <TextListEditor
              label="Evidence URLs (http:// or https://, optional)"
              items={draft.evidenceUrls}
              onChange={(evidenceUrls) => setDraft((d) => ({ ...d, evidenceUrls }))}
              pending={draft.pendingEvidenceUrl}
              onPendingChange={(pendingEvidenceUrl) => setDraft((d) => ({ ...d, pendingEvidenceUrl }))}
              placeholder="https://…"
              maxItems={MAX_EVIDENCE_URLS}
              maxLength={2000}
            />
          </div>
        )}
      </ReviewSection>
    </ReviewForm>
  );
}
