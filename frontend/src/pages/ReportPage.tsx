/** A standalone, printable view of a session's Knowledge Document (no app chrome). */
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ensureOk, fetchOrExplain } from "../api/client";
import { documentUrl } from "../components/session/KnowledgeDocument";
import { MarkdownView } from "../components/session/MarkdownView";
import { OfflineModelNote } from "../components/session/OfflineModelNote";
import { Alert } from "../components/ui/Alert";
import { Button } from "../components/ui/Button";
import { documentTitle } from "../document/documentText";
import { useSession } from "../hooks/useSessions";

export function ReportPage() {
  const { t } = useTranslation();
  const { sessionId = "" } = useParams();
  const report = useQuery({
    queryKey: ["document", sessionId],
    queryFn: async () => (await ensureOk(await fetchOrExplain(documentUrl(sessionId)))).text(),
  });
  const session = useSession(sessionId);
  const title = report.data ? documentTitle(report.data) : null;
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} — Knowledge Forge`; // the tab, a bookmark and a printed PDF's name
    return () => {
      document.title = before;
    };
  }, [title]);
  return (
    <main className="mx-auto max-w-4xl bg-white px-4 py-8 sm:px-6 print:max-w-none print:p-0">
      <nav aria-label={t("report.navLabel")} className="no-print mb-6 flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 pb-3">
        <Link to={`/sessions/${sessionId}`} className="text-sm text-indigo-700 underline">
          {t("report.back")}
        </Link>
        <div className="flex gap-2">
          <a href={documentUrl(sessionId)} download className="rounded-lg border border-slate-300 px-3.5 py-2 text-sm font-medium hover:bg-slate-50">
            {t("report.download")}
          </a>
          <Button onClick={() => window.print()}>{t("report.print")}</Button>
        </div>
      </nav>
      {!report.data && <h1 className="sr-only">{t("report.heading")}</h1>}
      {report.isPending && <p className="text-slate-500">{t("report.loading")}</p>}
      {report.isError && <Alert title={t("report.missing")}>{report.error.message}</Alert>}
      {report.data && (
        <article data-testid="report">
          <OfflineModelNote model={session.data?.model} className="no-print mb-4" />
          <MarkdownView markdown={report.data} />
        </article>
      )}
    </main>
  );
}
