/**
 * The Answer tab: the AnswerPack a person can act on — direct answer, the constraint compliance
 * table (each verdict in words and a symbol, not colour alone), traced evidence, risks and
 * boundaries, the hypothesis ranking, and the methodology folded away.
 */
import type { ReactNode } from "react";
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
  if (answer.isPending) return <p className="text-sm text-slate-500">Loading the answer…</p>;
  if (answer.isError) return <Alert tone="warning" title="No answer for this session">{answer.error.message}</Alert>;
  return <AnswerPackView sessionId={sessionId} pack={answer.data} />;
}

export function AnswerPackView({ sessionId, pack }: { sessionId: string; pack: AnswerPack }) {
  return (
    <div className="max-w-[80ch] space-y-6 break-words" data-testid="answer-pack">
      <Section id="answer-direct" title="Direct answer">
        <p className="text-[15px] leading-relaxed text-slate-800">{pack.direct_answer}</p>
        <div className="no-print flex flex-wrap items-center gap-2 text-sm">
          {pack.offline && <Badge tone="slate">Offline model · deterministic rules, no language model</Badge>}
          <a className="text-indigo-700 underline" href={answerMarkdownUrl(sessionId)} download={`answer-${sessionId}.md`}>
            Download answer (Markdown)
          </a>
          <a className="text-indigo-700 underline" href={answerJsonUrl(sessionId)} download={`answer-${sessionId}.json`}>
            JSON
          </a>
        </div>
      </Section>
      <Compliance pack={pack} />
      <Evidence pack={pack} />
      <Risks pack={pack} />
      <Ranking pack={pack} />
      <details className="rounded-lg border border-slate-200 bg-white p-3">
        <summary className="cursor-pointer font-semibold">The solution in full</summary>
        <MarkdownView markdown={pack.solution_markdown} />
      </details>
      <details className="rounded-lg border border-slate-200 bg-white p-3" data-testid="answer-methodology">
        <summary className="cursor-pointer font-semibold">Methodology</summary>
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
  return (
    <Section id="answer-compliance" title="Constraint compliance">
      <Alert tone={HEADLINE_TONE[headline.tone]}>{headline.text}</Alert>
      {pack.compliance.checks.length > 0 && (
        <ScrollArea label="Compliance table (scrolls sideways)">
          <table className="w-full text-left text-sm" data-testid="compliance-table">
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th scope="col" className="py-1 pr-3">Constraint</th>
                <th scope="col" className="py-1 pr-3">Verdict</th>
                <th scope="col" className="py-1">Why</th>
              </tr>
            </thead>
            <tbody>
              {pack.compliance.checks.map((check) => {
                const mark = verdictMark(check.verdict);
                return (
                  <tr key={check.constraint} className="border-b border-slate-100 align-top" data-verdict={check.verdict}>
                    <td className="py-1.5 pr-3">
                      {check.constraint} <span className="text-xs text-slate-500">({check.origin.replace("_", " ")})</span>
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
  return (
    <Section id="answer-evidence" title="Key evidence">
      {pack.key_evidence.length === 0 ? (
        <p className="text-sm text-slate-500">No evidence was recorded.</p>
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
                    item.title || "Validated claim"
                  )}
                </span>{" "}
                {item.source && !href && <code className="rounded bg-slate-100 px-1 text-xs">{item.source}</code>}{" "}
                <Badge tone={item.relation === "contradicting" ? "rose" : "slate"}>{item.relation.replace("_", " ")}</Badge>
                <p className="text-slate-700">{item.statement}</p>
                <p className="text-xs text-slate-500">Traced to: {traceLabel(item)}</p>
              </li>
            );
          })}
        </ol>
      )}
    </Section>
  );
}

function Risks({ pack }: { pack: AnswerPack }) {
  return (
    <Section id="answer-risks" title="Risks and boundaries">
      <ul className="list-disc space-y-1 pl-6 text-sm">
        {pack.risks.map((risk, i) => (
          <li key={i}>
            <Badge tone={risk.severity === "high" ? "rose" : risk.severity === "medium" ? "amber" : "slate"}>
              {risk.severity}
              {risk.unresolved ? " · unresolved" : ""}
            </Badge>{" "}
            {risk.text}
            {risk.mitigation && <span className="text-slate-600"> — mitigation: {risk.mitigation}</span>}
          </li>
        ))}
        {pack.boundaries.map((boundary, i) => (
          <li key={`b${i}`}>{boundary}</li>
        ))}
        {pack.risks.length + pack.boundaries.length === 0 && <li>No risk or boundary was recorded.</li>}
      </ul>
    </Section>
  );
}

function Ranking({ pack }: { pack: AnswerPack }) {
  return (
    <Section id="answer-ranking" title="Hypothesis ranking">
      {pack.ranking.length === 0 ? (
        <p className="text-sm text-slate-500">The hypothesis pool is empty.</p>
      ) : (
        <ol className="list-decimal space-y-1 pl-6 text-sm">
          {pack.ranking.map((h) => (
            <li key={h.id}>
              <span className="font-medium">{h.title}</span> <span className="text-slate-500">({h.domain})</span> — score{" "}
              {h.score.toFixed(2)}, gate {h.gate_status}, {h.verify_status}
            </li>
          ))}
        </ol>
      )}
      <p className="text-xs text-slate-500">Scores are the rule-layer composite (0–10) of each hypothesis's own fields.</p>
    </Section>
  );
}
