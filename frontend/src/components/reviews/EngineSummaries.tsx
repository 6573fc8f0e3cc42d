import type { DecomposePayload, ExplorePayload } from "./reviewTypes";

type FrameView = NonNullable<DecomposePayload["problem_frame"]>;
type SelectionView = NonNullable<ExplorePayload["domain_selection"]>;
type PoolView = NonNullable<ExplorePayload["pool"]>;

const FINDING_LABELS: Readonly<Record<string, string>> = {
  duplicate: "Merged",
  conflict: "Conflict",
  undecidable: "Cannot be checked",
};

function Items({ label, items }: { label: string; items: readonly string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd>
        <ul className="ml-5 list-disc space-y-0.5 text-slate-800">
          {items.map((item) => (
            <li key={item} className="break-words">
              {item}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}

/** The problem frame as the engine read it, and what the constraint audit (CP-1) found. */
export function ProblemFrameSummary({ view }: { view: FrameView }) {
  const { frame, audit } = view;
  return (
    <div className="space-y-3 text-sm">
      <dl className="space-y-2">
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Objective</dt>
          <dd className="break-words text-slate-800">{frame.objective}</dd>
        </div>
        {frame.target_outcome && (
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Success looks like</dt>
            <dd className="break-words text-slate-800">{frame.target_outcome}</dd>
          </div>
        )}
        <Items label="Hard constraints" items={frame.hard_constraints} />
        <Items label="Soft constraints" items={frame.soft_constraints} />
        <Items label="Success criteria" items={frame.success_criteria} />
        <Items label="Stakeholders" items={frame.stakeholders} />
      </dl>
      {audit.findings.length > 0 && (
        <ul className="space-y-1" aria-label="Constraint audit findings">
          {audit.findings.map((f) => (
            <li key={`${f.kind}-${f.indices.join("-")}`} className="rounded-md border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-amber-900">
              <strong>{FINDING_LABELS[f.kind] ?? f.kind}:</strong> {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The source domains BISO explored, why each was chosen, and what it gave the hypothesis pool. */
export function SourceDomainsSummary({ selection, pool }: { selection: SelectionView; pool: PoolView | null | undefined }) {
  const yields = new Map((pool?.domains ?? []).map((d) => [d.domain_id, d]));
  return (
    <div className="space-y-2 text-sm">
      {pool && (
        <p className="text-slate-700">
          {pool.kept} hypotheses in the pool ({pool.generated} generated, near-duplicates merged); {pool.passed} passed the
          mapping-quality gate.
        </p>
      )}
      {selection.shortfall && <p className="text-amber-800">{selection.shortfall}</p>}
      <details className="rounded-lg border border-slate-200">
        <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">
          The {selection.chosen.length} domains, why each was chosen, and what it gave
        </summary>
      <ul className="divide-y divide-slate-100 border-t border-slate-200" aria-label="Source domains explored">
        {selection.chosen.map((d) => {
          const y = yields.get(d.domain_id);
          return (
            <li key={d.domain_id} className="px-3 py-2">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium text-slate-900">{d.name}</span>
                {y && (
                  <span className="text-xs text-slate-600">
                    {y.failure ? `no hypotheses: ${y.failure}` : `${y.hypotheses} hypotheses, ${y.passed} passed the gate`}
                  </span>
                )}
              </div>
              <p className="break-words text-xs text-slate-600">{d.reason}</p>
            </li>
          );
        })}
      </ul>
      </details>
    </div>
  );
}
