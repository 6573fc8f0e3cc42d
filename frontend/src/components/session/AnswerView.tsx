/**
 * The Answer tab: the AnswerPack a person can act on — direct answer, the constraint compliance
 * table (each verdict in words and a symbol, not colour alone), traced evidence, risks and
 * boundaries, the hypothesis ranking (only hypotheses VERIFY passed, with its status and score; the
 * checked candidates that did not pass apart), and the methodology folded away. A solution that still
 * broke a hard constraint is withheld: the direct answer lists which constraint cannot be met and
 * what relaxing it would allow.
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ParseKeys } from "i18next";
import { i18n } from "../../i18n/i18n";
import { useAnswer } from "../../hooks/useAnswer";
import {
  answerJsonUrl,
  answerMarkdownUrl,
  complianceHeadline,
  evidenceHref,
  methodologyLines,
  traceLabel,
  verdictMark,
  type AnswerPack,
} from "../../session/answerView";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { ScrollArea } from "../ui/ScrollArea";
import { MarkdownView } from "./MarkdownView";

const HEADLINE_TONE = { emerald: "success", rose: "error", amber: "warning", slate: "info" } as const;

/** Words for the pack's enum-like fields; a value this UI does not know reads as the server sent it. */
const WORDS: Readonly<Record<string, ParseKeys>> = {
  "origin:user": "answer.originUser",
  "origin:domain": "answer.originDomain",
  "origin:risk_refinement": "answer.originRisk",
  "relation:supporting": "evidenceType.supporting",
  "relation:contradicting": "evidenceType.contradicting",
  "relation:contextual": "evidenceType.contextual",
  "relation:validated_claim": "answer.validatedClaimRelation",
  "severity:high": "answer.severityHigh",
  "severity:medium": "answer.severityMedium",
  "severity:low": "answer.severityLow",
  "gate:passed": "explore.gatePassed",
  "gate:failed": "explore.gateFailed",
  "verify:passed": "verify.status.passed",
  "verify:failed": "verify.status.failed",
  "verify:escalated": "verify.status.escalated",
  "verify:abstained": "verify.status.abstained",
  "verify:unverified": "answer.notVerified",
};

function wordsFor(kind: "origin" | "relation" | "severity" | "gate" | "verify", value: string): string {
  const key = WORDS[`${kind}:${value}`];
  return key ? i18n.t(key) : value.replaceAll("_", " ");
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function AnswerView({ sessionId }: { sessionId: string }) {
  const answer = useAnswer(sessionId, true);
  const { t } = useTranslation();
  if (answer.isPending) return <p className="text-sm text-slate-500">{t("answer.loading")}</p>;
  if (answer.isError) return <Alert tone="warning" title={t("answer.missing")}>{answer.error.message}</Alert>;
  return <AnswerPackView sessionId={sessionId} pack={answer.data} />;
}

export function AnswerPackView({ sessionId, pack }: { sessionId: string; pack: AnswerPack }) {
  const { t } = useTranslation();
  return (
    <div className="max-w-[80ch] space-y-6 break-words" data-testid="answer-pack">
      <Section id="answer-direct" title={t("answer.direct")}>
        {pack.cannot_be_met ? <CannotBeMet unmet={pack.cannot_be_met} /> : <p className="whitespace-pre-line text-[15px] leading-relaxed text-slate-800">{pack.direct_answer}</p>}
        <div className="no-print flex flex-wrap items-center gap-2 text-sm">
          {pack.offline && <Badge tone="slate">{t("answer.offlineBadge")}</Badge>}
          <a className="text-indigo-700 underline" href={answerMarkdownUrl(sessionId)} download={`answer-${sessionId}.md`}>
            {t("answer.downloadMarkdown")}
          </a>
          <a className="text-indigo-700 underline" href={answerJsonUrl(sessionId)} download={`answer-${sessionId}.json`}>
            {t("answer.json")}
          </a>
        </div>
      </Section>
      <Compliance pack={pack} />
      <Evidence pack={pack} />
      <Risks pack={pack} />
      <Ranking pack={pack} />
      <details className="rounded-lg border border-slate-200 bg-white p-3">
        <summary className="cursor-pointer font-semibold">{t("answer.solutionFull")}</summary>
        <MarkdownView markdown={pack.solution_markdown} />
      </details>
      <details className="rounded-lg border border-slate-200 bg-white p-3" data-testid="answer-methodology">
        <summary className="cursor-pointer font-semibold">{t("answer.methodology")}</summary>
        <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_minmax(0,1fr)]">
          {methodologyLines(pack).map((line, i) => (
            <div key={i} className="contents">
              <dt className="font-medium text-slate-600">{line.label}</dt>
              <dd className="text-slate-800">{line.value}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}

function Compliance({ pack }: { pack: AnswerPack }) {
  const headline = complianceHeadline(pack.compliance);
  const { t } = useTranslation();
  return (
    <Section id="answer-compliance" title={t("answer.compliance")}>
      <Alert tone={HEADLINE_TONE[headline.tone]}>{headline.text}</Alert>
      {pack.compliance.checks.length > 0 && (
        <ScrollArea label={t("answer.complianceTable")}>
          <table className="w-full text-left text-sm" data-testid="compliance-table">
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th scope="col" className="py-1 pr-3">{t("answer.constraint")}</th>
                <th scope="col" className="py-1 pr-3">{t("answer.verdict")}</th>
                <th scope="col" className="py-1">{t("answer.why")}</th>
              </tr>
            </thead>
            <tbody>
              {pack.compliance.checks.map((check) => {
                const mark = verdictMark(check.verdict);
                return (
                  <tr key={check.constraint} className="border-b border-slate-100 align-top" data-verdict={check.verdict}>
                    <td className="py-1.5 pr-3">
                      {check.constraint} <span className="text-xs text-slate-500">{t("answer.origin", { origin: wordsFor("origin", check.origin) })}</span>
                    </td>
                    <td className="py-1.5 pr-3 whitespace-nowrap">
                      <Badge tone={mark.tone}>
                        <span aria-hidden="true">{mark.symbol}</span>&nbsp;{mark.label}
                      </Badge>
                    </td>
                    <td className="py-1.5 text-slate-700">{check.reason}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </Section>
  );
}

function Evidence({ pack }: { pack: AnswerPack }) {
  const { t } = useTranslation();
  return (
    <Section id="answer-evidence" title={t("answer.keyEvidence")}>
      {pack.key_evidence.length === 0 ? (
        <p className="text-sm text-slate-500">{t("answer.noEvidence")}</p>
      ) : (
        <ol className="list-decimal space-y-2 pl-6 text-sm">
          {pack.key_evidence.map((item, i) => {
            const href = evidenceHref(item);
            return (
              <li key={i}>
                <span className="font-medium">
                  {href ? (
                    <a className="text-indigo-700 underline" href={href} target="_blank" rel="noreferrer noopener">
                      {item.title}
                    </a>
                  ) : (
                    item.title || t("answer.validatedClaim")
                  )}
                </span>{" "}
                {item.source && !href && <code className="rounded bg-slate-100 px-1 text-xs">{item.source}</code>}{" "}
                <Badge tone={item.relation === "contradicting" ? "rose" : "slate"}>{wordsFor("relation", item.relation)}</Badge>
                {item.verify_status === "failed" && <Badge tone="amber">{t("answer.keptOverVerify")}</Badge>}
                <p className="text-slate-700">{item.statement}</p>
                <p className="text-xs text-slate-500">{t("answer.tracedTo", { trace: traceLabel(item) })}</p>
              </li>
            );
          })}
        </ol>
      )}
    </Section>
  );
}

function Risks({ pack }: { pack: AnswerPack }) {
  const { t } = useTranslation();
  return (
    <Section id="answer-risks" title={t("answer.risks")}>
      <ul className="list-disc space-y-1 pl-6 text-sm">
        {pack.risks.map((risk, i) => (
          <li key={i}>
            <Badge tone={risk.severity === "high" ? "rose" : risk.severity === "medium" ? "amber" : "slate"}>
              {wordsFor("severity", risk.severity)}
              {risk.unresolved ? t("answer.unresolved") : ""}
            </Badge>{" "}
            {risk.text}
            {risk.mitigation && <span className="text-slate-600">{t("answer.mitigation", { mitigation: risk.mitigation })}</span>}
          </li>
        ))}
        {pack.boundaries.map((boundary, i) => (
          <li key={`b${i}`}>{boundary}</li>
        ))}
        {pack.risks.length + pack.boundaries.length === 0 && <li>{t("answer.noRisks")}</li>}
      </ul>
    </Section>
  );
}

function CannotBeMet({ unmet }: { unmet: NonNullable<AnswerPack["cannot_be_met"]> }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2" data-testid="cannot-be-met">
      <h3 className="text-sm font-semibold text-rose-800">{t("answer.cannotBeMet")}</h3>
      <ul className="list-disc space-y-1 pl-6 text-[15px] text-slate-800">
        {unmet.constraints.map((u) => (
          <li key={u.constraint}>
            {t("answer.unmetConstraint", { constraint: u.constraint, why: u.why })}
            <p className="text-slate-700">{t("answer.relaxingAllows", { allows: u.relaxing_allows })}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

type Ranked = AnswerPack["ranking"][number];

function rankedLine(h: Ranked): string {
  const scored = h.verify_score == null ? wordsFor("verify", h.verify_status) : i18n.t("answer.verifyScore", { status: wordsFor("verify", h.verify_status), score: h.verify_score.toFixed(1) });
  const verify = h.novelty_unverified ? `${scored} (${i18n.t("answer.noveltyUnverified")})` : scored;
  return i18n.t("answer.rankingLine", { score: h.score.toFixed(2), gate: wordsFor("gate", h.gate_status), verify });
}

function Ranking({ pack }: { pack: AnswerPack }) {
  const { t } = useTranslation();
  const unranked = pack.unranked ?? [];
  return (
    <Section id="answer-ranking" title={t("answer.ranking")}>
      {pack.ranking.length === 0 ? (
        <p className="text-sm text-slate-500">{unranked.length ? t("answer.noneVerified") : t("answer.poolEmpty")}</p>
      ) : (
        <ol className="list-decimal space-y-1 pl-6 text-sm">
          {pack.ranking.map((h) => (
            <li key={h.id}>
              <span className="font-medium">{h.title}</span> <span className="text-slate-500">({h.domain})</span> {rankedLine(h)}
            </li>
          ))}
        </ol>
      )}
      {unranked.length > 0 && (
        <div data-testid="answer-unranked">
          <h3 className="text-sm font-semibold text-slate-700">{t("answer.unranked")}</h3>
          <ul className="list-disc space-y-1 pl-6 text-sm text-slate-600">
            {unranked.map((h) => (
              <li key={h.id}>
                <span className="font-medium">{h.title}</span> ({h.domain}) {rankedLine(h)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-xs text-slate-500">{t("answer.scoresNote")}</p>
    </Section>
  );
}
