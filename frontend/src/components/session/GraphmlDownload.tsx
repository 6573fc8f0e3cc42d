import { useTranslation } from "react-i18next";

export const graphmlUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/graph.graphml`;

/** A link to the knowledge graph as GraphML, for people who analyse graphs in Gephi, Cytoscape or yEd. */
export function GraphmlDownload({ sessionId, className }: { sessionId: string; className: string }) {
  const { t } = useTranslation();
  return (
    <a href={graphmlUrl(sessionId)} download={`knowledge-graph-${sessionId}.graphml`} title={t("graph.downloadGraphmlHint")} className={className}>
      {t("graph.downloadGraphml")}
    </a>
  );
}
