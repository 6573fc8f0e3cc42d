/**
 * The "Supervisor" tab: what SAGA (the slow agent) found at each checkpoint — the statistic, the
 * hypotheses involved — and the directives the pipeline took because of it, with the cognitive
 * budget and the C-K coordinator's state. While a review waits, the person can mark findings to
 * dismiss and suggested constraints to adopt; the choices go with their next review.
 */
import type { Supervisor, SupervisorDecisions, SupervisorDirective, SupervisorFinding } from "../../session/supervisorView";
import { describeStatistic, findingsByCheckpoint, LAYER_LABELS, listIds } from "../../session/supervisorView";
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
  const titles = new Map(supervisor.checkpoints.map((c) => [c.checkpoint, c.title]));
  return (
    <div className="space-y-4" data-testid="supervisor-panel">
      {reviewOpen && (
        <Alert tone="info" title="Your choices go with your next review">
          Mark findings to dismiss and suggested constraints to adopt, then answer the review on the Now tab.
        </Alert>
      )}
      {supervisor.paused && (
        <Alert tone="warning" title="Search is paused">
          Every hypothesis of the last batch broke a hard constraint. Dismiss the finding to resume it, or wait for a compliant batch.
        </Alert>
      )}
      <Card title={`Findings (${supervisor.findings.length})`}>
        {supervisor.findings.length === 0 ? (
          <p className="text-sm text-slate-500">No anomaly found so far.</p>
        ) : (
          <div className="space-y-4">
            {findingsByCheckpoint(supervisor.findings).map(([checkpoint, findings]) => (
              <section key={checkpoint} aria-label={`${checkpoint} findings`}>
                <h3 className="text-sm font-semibold text-slate-800">
                  {checkpoint} {titles.get(checkpoint as Supervisor["checkpoints"][number]["checkpoint"]) ?? ""}
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
      <Card title={`Directives (${supervisor.directives.length})`}>
        {supervisor.directives.length === 0 ? (
          <p className="text-sm text-slate-500">The pipeline has not been told to change course.</p>
        ) : (
          <ul className="space-y-2">
            {supervisor.directives.map((d) => (
              <DirectiveItem key={d.id} directive={d} reviewOpen={reviewOpen} chosen={decisions.adopted.includes(d.id)} onToggle={onToggle} />
            ))}
          </ul>
        )}
      </Card>
      <Card title="Attention and direction">
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
          <dt className="text-slate-500">Cognitive budget ({supervisor.budget.strategy})</dt>
          <dd>
            {round(Object.values(supervisor.budget.spent).reduce((a, b) => a + b, 0))} of {supervisor.budget.total_units} units spent
          </dd>
          <dt className="text-slate-500">C-K space</dt>
          <dd>
            {supervisor.ck.space === "C" ? "Concepts (expanding ideas)" : "Knowledge (seeking evidence)"}
            {supervisor.ck.transitions.length > 0 && ` · ${supervisor.ck.transitions.join(", ")}`}
          </dd>
          <dt className="text-slate-500">Search quota changes</dt>
          <dd>{Object.entries(supervisor.quota_changes).map(([op, n]) => `${op} ${n > 0 ? "+" : ""}${n}`).join(", ") || "none"}</dd>
          <dt className="text-slate-500">Flagged hypotheses</dt>
          <dd>{supervisor.flagged.length ? listIds(supervisor.flagged) : "none"}</dd>
        </dl>
      </Card>
    </div>
  );
}

function FindingItem({ finding: f, reviewOpen, chosen, onToggle }: { finding: SupervisorFinding; reviewOpen: boolean; chosen: boolean; onToggle: Props["onToggle"] }) {
  const statistic = describeStatistic(f);
  return (
    <li className={`rounded-md border px-3 py-2 text-sm ${f.dismissed ? "border-slate-200 bg-slate-50 text-slate-500" : "border-slate-200"}`} data-finding={f.id}>
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge tone={SEVERITY_TONE[f.severity]}>{f.severity}</Badge>
        <Badge tone="violet">{LAYER_LABELS[f.layer] ?? `Layer ${f.layer}`}</Badge>
        <strong className="font-semibold">{f.kind.replaceAll("_", " ")}</strong>
        {statistic && <code className="text-xs text-slate-600">{statistic}</code>}
        {f.dismissed && <Badge>dismissed</Badge>}
      </div>
      <p className="mt-1 text-slate-700">{f.message}</p>
      {f.hypothesis_ids.length > 0 && <p className="mt-0.5 text-xs text-slate-500">Affected: {listIds(f.hypothesis_ids, 5)}</p>}
      {reviewOpen && !f.dismissed && (
        <label className="mt-1 flex items-center gap-2 text-xs">
          <input type="checkbox" className="size-4" checked={chosen} onChange={() => onToggle("dismissed", f.id)} />
          Dismiss with my next review
        </label>
      )}
    </li>
  );
}

function DirectiveItem({ directive: d, reviewOpen, chosen, onToggle }: { directive: SupervisorDirective; reviewOpen: boolean; chosen: boolean; onToggle: Props["onToggle"] }) {
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 text-sm" data-directive={d.id}>
      <div className="flex flex-wrap items-center gap-1.5">
        <code className="text-xs font-semibold">{d.kind}</code>
        <span className="text-xs text-slate-500">because of {d.finding_id}</span>
        {d.adopted && <Badge tone="emerald">adopted</Badge>}
      </div>
      <p className="mt-1 text-slate-700">{d.message}</p>
      {reviewOpen && d.adoptable && (
        <label className="mt-1 flex items-center gap-2 text-xs">
          <input type="checkbox" className="size-4" checked={chosen} onChange={() => onToggle("adopted", d.id)} />
          Make this one of my constraints
        </label>
      )}
    </li>
  );
}

const round = (x: number) => Math.round(x * 10) / 10;
