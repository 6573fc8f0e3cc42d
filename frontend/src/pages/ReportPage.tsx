/** A standalone, printable view of a session's Knowledge Document (no app chrome). */
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { ensureOk, fetchOrExplain } from "../api/client";
import { documentUrl } from "../components/session/KnowledgeDocument";
import { MarkdownView } from "../components/session/MarkdownView";
import { Alert } from "../components/ui/Alert";
import { Button } from "../components/ui/Button";

export function ReportPage() {
  const { sessionId = "" } = useParams();
  const report = useQuery({
    queryKey: ["document", sessionId],
    queryFn: async () => (await ensureOk(await fetchOrExplain(documentUrl(sessionId)))).text(),
  });
  return (
    <main className="mx-auto max-w-3xl bg-white px-4 py-8 sm:px-6 print:max-w-none print:p-0">
      <nav aria-label="Report" className="no-print mb-6 flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 pb-3">
        <Link to={`/sessions/${sessionId}`} className="text-sm text-indigo-700 underline">
          ← Back to the session
        </Link>
        <div className="flex gap-2">
          <a href={documentUrl(sessionId)} download className="rounded-lg border border-slate-300 px-3.5 py-2 text-sm font-medium hover:bg-slate-50">
            Download Markdown
          </a>
          <Button onClick={() => window.print()}>Print</Button>
        </div>
      </nav>
      {!report.data && <h1 className="sr-only">Knowledge Document</h1>}
      {report.isPending && <p className="text-slate-500">Loading the report…</p>}
      {report.isError && <Alert title="No report for this session yet">{report.error.message}</Alert>}
      {report.data && (
        <article data-testid="report">
          <MarkdownView markdown={report.data} />
        </article>
      )}
    </main>
  );
}
