/**
 * The "Supervisor" tab: what SAGA (the slow agent) found at each checkpoint — the statistic, the
 * hypotheses involved — and the directives the pipeline took because of it, with the cognitive
 * budget and the C-K coordinator's state. While a review waits, the person can mark findings to
 * dismiss and suggested constraints to adopt; the choices go with their next review.
 */
import { useTranslation } from "react-i18next";
import type { Supervisor, SupervisorDecisions, SupervisorDirective, SupervisorFinding } from "../../session/supervisorView";
import { checkpointTitle, describeStatistic, findingsByCheckpoint, layerLabel, listIds } from "../../session/supervisorView";
import { Alert } from "../ui/Alert";
import { Badge, type BadgeTone } from "../ui/Badge";
import { Card } from "../ui/Card";

const SEVERITY_TONE: Readonly<Record<SupervisorFinding["severity"], BadgeTone>> = {
  info: "sky",
  warning: "amber",
  critical: "rose",
};

interface Props {
  readonly supervisor: Supervisor;
  readonly reviewOpen: boolean;
  readonly decisions: SupervisorDecisions;
  readonly onToggle: (kind: keyof SupervisorDecisions, id: string) => void;
}

export function SupervisorPanel({ supervisor, reviewOpen, decisions, onToggle }: Props) {
  const titles = new Map<string, string>(supervisor.checkpoints.map((c) => [c.checkpoint, c.title]));
  const { t } = useTranslation();
  const spent = round(Object.values(supervisor.budget.spent).reduce((a, b) => a + b, 0));
  const quota = Object.entries(supervisor.quota_changes).map(([op, n]) => `${op} ${n > 0 ? "+" : ""}${n}`);
  return (
    <div className="space-y-4" data-testid="supervisor-panel">
      {reviewOpen && (
        <Alert tone="info" title={t("supervisor.choicesTitle")}>
          {t("supervisor.choicesBody")}
        </Alert>
      )}
      {supervisor.paused && (
        <Alert tone="warning" title={t("supervisor.pausedTitle")}>
          {t("supervisor.pausedBody")}
        </Alert>
      )}
      <Card title={t("supervisor.findings", { count: supervisor.findings.length })}>
        {supervisor.findings.length === 0 ? (
          <p className="text-sm text-slate-500">{t("supervisor.noFindings")}</p>
        ) : (
          <div className="space-y-4">
            {findingsByCheckpoint(supervisor.findings).map(([checkpoint, findings]) => (
              <section key={checkpoint} aria-label={t("supervisor.checkpointFindings", { checkpoint })}>
                <h3 className="text-sm font-semibold text-slate-800">
                  {checkpoint} {checkpointTitle(checkpoint, titles.get(checkpoint) ?? "")}
                </h3>
                <ul className="mt-1 space-y-2">
                  {findings.map((f) => (
                    <FindingItem key={f.id} finding={f} reviewOpen={reviewOpen} chosen={decisions.dismissed.includes(f.id)} onToggle={onToggle} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </Card>
      <Card title={t("supervisor.directives", { count: supervisor.directives.length })}>
        {supervisor.directives.length === 0 ? (
          <p className="text-sm text-slate-500">{t("supervisor.noDirectives")}</p>
        ) : (
          <ul className="space-y-2">
            {supervisor.directives.map((d) => (
              <DirectiveItem key={d.id} directive={d} reviewOpen={reviewOpen} chosen={decisions.adopted.includes(d.id)} onToggle={onToggle} />
            ))}
          </ul>
        )}
      </Card>
      <Card title={t("supervisor.attention")}>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
          <dt className="text-slate-500">{t("supervisor.budget", { strategy: supervisor.budget.strategy })}</dt>
          <dd>{t("supervisor.unitsSpent", { spent, total: supervisor.budget.total_units })}</dd>
          <dt className="text-slate-500">{t("supervisor.ckSpace")}</dt>
          <dd>
            {supervisor.ck.space === "C" ? t("supervisor.concepts") : t("supervisor.knowledge")}
            {supervisor.ck.transitions.length > 0 && ` · ${supervisor.ck.transitions.join(", ")}`}
          </dd>
          <dt className="text-slate-500">{t("supervisor.quotaChanges")}</dt>
          <dd>{quota.join(", ") || t("answer.none")}</dd>
          <dt className="text-slate-500">{t("supervisor.flagged")}</dt>
          <dd>{supervisor.flagged.length ? listIds(supervisor.flagged) : t("answer.none")}</dd>
        </dl>
      </Card>
    </div>
  );
}

function FindingItem({ finding: f, reviewOpen, chosen, onToggle }: { finding: SupervisorFinding; reviewOpen: boolean; chosen: boolean; onToggle: Props["onToggle"] }) {
  const statistic = describeStatistic(f);
  const { t } = useTranslation();
  return (
    <li className={`rounded-md border px-3 py-2 text-sm ${f.dismissed ? "border-slate-200 bg-slate-50 text-slate-500" : "border-slate-200"}`} data-finding={f.id}>
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge tone={SEVERITY_TONE[f.severity]}>{t(`supervisor.severity.${f.severity}`)}</Badge>
        <Badge tone="violet">{layerLabel(f.layer)}</Badge>
        <strong className="font-semibold">{t(`supervisor.kind.${f.kind}`)}</strong>
        {statistic && <code className="text-xs text-slate-600">{statistic}</code>}
        {f.dismissed && <Badge>{t("supervisor.dismissed")}</Badge>}
      </div>
      <p className="mt-1 text-slate-700">{f.message}</p>
      {f.hypothesis_ids.length > 0 && <p className="mt-0.5 text-xs text-slate-500">{t("supervisor.affected", { ids: listIds(f.hypothesis_ids, 5) })}</p>}
      {reviewOpen && !f.dismissed && (
        <label className="mt-1 flex items-center gap-2 text-xs">
          <input type="checkbox" className="size-4" checked={chosen} onChange={() => onToggle("dismissed", f.id)} />
          {t("supervisor.dismissWithReview")}
        </label>
      )}
    </li>
  );
}

function DirectiveItem({ directive: d, reviewOpen, chosen, onToggle }: { directive: SupervisorDirective; reviewOpen: boolean; chosen: boolean; onToggle: Props["onToggle"] }) {
  const { t } = useTranslation();
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-directive={d.id}>
      <div className="flex flex-wrap items-center gap-1.5">
        <code className="text-xs font-semibold">{d.kind}</code>
        <span className="text-xs text-slate-500">{t("supervisor.becauseOf", { id: d.finding_id })}</span>
        {d.adopted && <Badge tone="emerald">{t("supervisor.adopted")}</Badge>}
      </div>
      <p className="mt-1 text-slate-700">{d.message}</p>
      {reviewOpen && d.adoptable && (
        <label className="mt-1 flex items-center gap-2 text-xs">
          <input type="checkbox" className="size-4" checked={chosen} onChange={() => onToggle("adopted", d.id)} />
          {t("supervisor.adopt")}
        </label>
      )}
    </li>
  );
}

const round = (x: number) => Math.round(x * 10) / 10;
