import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSession } from "../../hooks/useSessions";
import { GraphmlDownload } from "./GraphmlDownload";
import { MarkdownView } from "./MarkdownView";
import { OfflineModelNote } from "./OfflineModelNote";

export const documentUrl = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/document`;

/** The final Knowledge Document, with download and a printable report view. */
export function KnowledgeDocument({ sessionId, markdown }: { sessionId: string; markdown: string }) {
  const { t } = useTranslation();
  const session = useSession(sessionId); // already cached by the session page: no extra request
  return (
    <div className="space-y-4" data-testid="knowledge-document">
      <div className="no-print flex flex-wrap gap-2">
        <a
          href={documentUrl(sessionId)}
          download={`knowledge-document-${sessionId}.md`}
          className="rounded-lg bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
        >
          {t("document.download")}
        </a>
        <GraphmlDownload
          sessionId={sessionId}
          className="rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        />
        <Link
          to={`/sessions/${sessionId}/report`}
          className="rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {t("document.printable")}
        </Link>
      </div>
      <OfflineModelNote model={session.data?.model} />
      <article className="rounded-xl border border-slate-200 bg-white p-5">
        <MarkdownView markdown={markdown} />
      </article>
    </div>
  );
}
