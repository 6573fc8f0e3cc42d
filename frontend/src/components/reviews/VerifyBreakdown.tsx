import type { VerdictsPayload } from "./reviewTypes";
import { Badge, type BadgeTone } from "../ui/Badge";

type Verify = NonNullable<VerdictsPayload["claims"][number]["verify"]>;

const STATUS_TONES: Record<Verify["status"], BadgeTone> = {
  passed: "emerald",
  failed: "rose",
  escalated: "amber",
  abstained: "slate",
};

const LOGIC_DIMS = [
  ["analogy_validity", "Analogy validity"],
  ["internal_consistency", "Internal consistency"],
  ["causal_rigor", "Causal rigor"],
] as const;

function Dim({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className={`tabular-nums ${value >= 6 ? "text-slate-900" : "text-rose-700"}`}>{value.toFixed(1)} / 10</dd>
    </div>
  );
}

/** The independent verifier's VERIFY verdict on a claim, next to the agent's four scores. */
export function VerifyBreakdown({ verify, claimNumber }: { verify: Verify; claimNumber: number }) {
  const novelty = verify.novelty;
  return (
    <section aria-label={`Independent verification of claim ${claimNumber}`} className="space-y-3 rounded-lg border border-slate-200 bg-slate-50/70 p-3" data-testid="verify-breakdown">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Verifier</h4>
        <Badge tone={STATUS_TONES[verify.status]}>{verify.status}</Badge>
        <span className="text-sm text-slate-800">final {verify.final_score.toFixed(1)} / 10</span>
        <span className="text-sm text-slate-700">
          confidence {verify.confidence.toFixed(2)}
          {verify.samples > 0 && ` (${verify.samples} samples)`}
        </span>
        {verify.position_consistent === false && <Badge tone="amber">position bias: reversed order disagreed</Badge>}
        {verify.injection.length > 0 && <Badge tone="rose">prompt injection flagged</Badge>}
      </div>
      <p className="text-xs text-slate-600">{verify.verifier}</p>
      <div className="grid grid-cols-1 gap-3 @xl:grid-cols-2">
        {verify.logic && (
          <div>
            <h5 className="text-xs font-semibold text-slate-700">Logic {verify.logic.passed ? "passed" : "failed"} (all three ≥ 6)</h5>
            <dl className="mt-1 space-y-0.5">
              {LOGIC_DIMS.map(([key, label]) => (
                <Dim key={key} label={label} value={verify.logic![key]} />
              ))}
            </dl>
          </div>
        )}
        {novelty && (
          <div>
            <h5 className="text-xs font-semibold text-slate-700">Novelty</h5>
            <dl className="mt-1 space-y-0.5">
              <Dim label="Preliminary" value={novelty.preliminary} />
              <Dim label={novelty.searched ? "After prior-art search" : "Not searched (below 6)"} value={novelty.adjusted} />
            </dl>
            {novelty.searched && (
              <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
                {novelty.evidence.map((e) => (
                  <li key={`${e.kind}-${e.reference}`}>
                    {e.kind.replace("_", " ")}: {Math.round(e.prior_art_similarity * 100)}% already stated by{" "}
                    {e.reference.startsWith("http") ? (
                      <a href={e.reference} className="text-indigo-700 underline" target="_blank" rel="noreferrer noopener">
                        {verify.sources.find((s) => s.source === e.reference)?.title || e.reference}
                      </a>
                    ) : (
                      verify.sources.find((s) => s.source === e.reference)?.title || e.reference
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {verify.injection.length > 0 && (
        <ul className="space-y-0.5 text-xs text-rose-800">
          {verify.injection.map((f) => (
            <li key={`${f.source}-${f.pattern}`}>
              {f.pattern.replaceAll("_", " ")} in {f.source}: “{f.excerpt}”
            </li>
          ))}
        </ul>
      )}
      {verify.note && <p className="text-xs text-slate-600">{verify.note}</p>}
    </section>
  );
}
