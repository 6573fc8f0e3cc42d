import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import type { VerdictsPayload } from "./reviewTypes";
import { Badge, type BadgeTone } from "../ui/Badge";

type Verify = NonNullable<VerdictsPayload["claims"][number]["verify"]>;

const STATUS_TONES: Record<Verify["status"], BadgeTone> = {
  passed: "emerald",
  failed: "rose",
  escalated: "amber",
  abstained: "slate",
};

const LOGIC_DIMS: readonly (readonly ["analogy_validity" | "internal_consistency" | "causal_rigor", ParseKeys])[] = [
  ["analogy_validity", "verify.analogyValidity"],
  ["internal_consistency", "verify.internalConsistency"],
  ["causal_rigor", "verify.causalRigor"],
];

function Dim({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className={`tabular-nums ${value >= 6 ? "text-slate-900" : "text-rose-700"}`}>{value.toFixed(1)} / 10</dd>
    </div>
  );
}

/** What VERIFY searched for the claim's prior art: the web (which providers) and/or the local corpus. */
function SearchedLines({ searches }: { searches: Verify["prior_art_searches"] }) {
  const { t } = useTranslation();
  const web = searches.filter((s) => s.scope === "web");
  const local = searches.filter((s) => s.scope === "local_corpus");
  const results = (list: typeof searches) => list.reduce((sum, s) => sum + s.results, 0);
  return (
    <ul className="space-y-0.5 text-xs text-slate-600" data-testid="verify-searched">
      {web.length > 0 && (
        <li>{t("verify.searchedWeb", { providers: [...new Set(web.map((s) => s.provider))].join(", "), count: web.length, results: results(web) })}</li>
      )}
      {local.length > 0 && <li>{t("verify.searchedLocal", { count: local.length, results: results(local) })}</li>}
    </ul>
  );
}

/** The independent verifier's VERIFY verdict on a claim, next to the agent's four scores. */
export function VerifyBreakdown({ verify, claimNumber }: { verify: Verify; claimNumber: number }) {
  const novelty = verify.novelty;
  const { t } = useTranslation();
  const titleOf = (reference: string) => verify.sources.find((s) => s.source === reference)?.title || reference;
  return (
    <section aria-label={t("verify.label", { n: claimNumber })} className="space-y-3 rounded-lg border border-slate-200 bg-slate-50/70 p-3" data-testid="verify-breakdown">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("verify.verifier")}</h4>
        <Badge tone={STATUS_TONES[verify.status]}>{t(`verify.status.${verify.status}`)}</Badge>
        <span className="text-sm text-slate-800">{t("verify.final", { score: verify.final_score.toFixed(1) })}</span>
        <span className="text-sm text-slate-700">
          {verify.samples > 0 ? t("verify.confidenceSamples", { confidence: verify.confidence.toFixed(2), count: verify.samples }) : t("verify.confidence", { confidence: verify.confidence.toFixed(2) })}
        </span>
        {verify.position_consistent === false && <Badge tone="amber">{t("verify.positionBias")}</Badge>}
        {verify.injection.length > 0 && <Badge tone="rose">{t("verify.injectionFlagged")}</Badge>}
        {novelty?.unverified && <Badge tone="amber">{t("verify.noveltyUnverified")}</Badge>}
      </div>
      <p className="text-xs text-slate-600">{verify.verifier}</p>
      <div className="grid grid-cols-1 gap-3 @xl:grid-cols-2">
        {verify.logic && (
          <div>
            <h5 className="text-xs font-semibold text-slate-700">{verify.logic.passed ? t("verify.logicPassed") : t("verify.logicFailed")}</h5>
            <dl className="mt-1 space-y-0.5">
              {LOGIC_DIMS.map(([key, label]) => (
                <Dim key={key} label={t(label)} value={verify.logic![key]} />
              ))}
            </dl>
          </div>
        )}
        {novelty && (
          <div>
            <h5 className="text-xs font-semibold text-slate-700">{t("claim.novelty")}</h5>
            <dl className="mt-1 space-y-0.5">
              <Dim label={t("verify.preliminary")} value={novelty.preliminary} />
              <Dim label={novelty.searched ? t("verify.afterSearch") : t("verify.notSearched")} value={novelty.adjusted} />
            </dl>
            {novelty.unverified && <p className="mt-1 text-xs text-amber-800">{t("verify.noveltyUnverifiedWhy")}</p>}
            {novelty.searched && (
              <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
                {novelty.evidence.map((e) => (
                  <li key={`${e.kind}-${e.reference}`}>
                    {t("verify.priorArt", { kind: e.kind.replace("_", " "), percent: Math.round(e.prior_art_similarity * 100) })}{" "}
                    {e.reference.startsWith("http") ? (
                      <a href={e.reference} className="text-indigo-700 underline" target="_blank" rel="noreferrer noopener">
                        {titleOf(e.reference)}
                      </a>
                    ) : (
                      titleOf(e.reference)
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
              {t("verify.injectionLine", { pattern: f.pattern.replaceAll("_", " "), source: f.source, excerpt: f.excerpt })}
            </li>
          ))}
        </ul>
      )}
      {verify.prior_art_searches.length > 0 && <SearchedLines searches={verify.prior_art_searches} />}
      {verify.note && <p className="text-xs text-slate-600">{verify.note}</p>}
    </section>
  );
}
