import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "../ui/Badge";
import type { EvidenceView } from "./reviewTypes";
import { isHttpUrl } from "./validateReviews";

const TYPE_TONES: Record<EvidenceView["evidence_type"], BadgeTone> = {
  supporting: "emerald",
  contradicting: "rose",
  contextual: "sky",
};

/** Where a piece of evidence came from: a link for web sources, the plain id for corpus and document sources. */
function Source({ source }: { source: string }) {
  if (isHttpUrl(source)) {
    return (
      <a href={source} target="_blank" rel="noopener noreferrer" className="break-all text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:text-indigo-900">
        {source}
      </a>
    );
  }
  return <span className="break-all font-mono text-slate-500">{source}</span>;
}

/** Evidence as a list: title, its role (supporting / contradicting / contextual), summary and source. */
export function EvidenceList({ evidence }: { evidence: readonly EvidenceView[] }) {
  const { t } = useTranslation();
  if (evidence.length === 0) return <p className="text-sm text-slate-500">{t("evidence.none")}</p>;
  return (
    <ul className="space-y-2">
      {evidence.map((item) => (
        <li key={item.id} className="rounded-lg border border-slate-100 bg-slate-50/70 px-3 py-2 text-sm">
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
            <p className="font-medium text-slate-900">{item.title}</p>
            <Badge tone={TYPE_TONES[item.evidence_type]}>{t(`evidenceType.${item.evidence_type}`)}</Badge>
          </div>
          <p className="mt-1 text-slate-700">{item.summary}</p>
          <p className="mt-1 text-xs">
            <span className="text-slate-500">{t("evidence.source")}</span>
            <Source source={item.source} />
          </p>
        </li>
      ))}
    </ul>
  );
}
