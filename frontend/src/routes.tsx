/**
 * Routes. The home page is in the first bundle; the session and report pages (the graph library and
 * the Markdown renderer come with them) load on first visit, so the first page paints sooner.
 */
import { createBrowserRouter } from "react-router";
import { AppLayout } from "./pages/AppLayout";
import { HomePage } from "./pages/HomePage";
import { NotFoundPage } from "./pages/NotFoundPage";

function Loading() {
  return <p className="p-6 text-sm text-slate-500">Loading…</p>;
}

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    hydrateFallbackElement: <Loading />,
    children: [
      { path: "/", element: <HomePage /> },
      { path: "/sessions/:sessionId", lazy: async () => ({ Component: (await import("./pages/SessionPage")).SessionPage }) },
      { path: "/memory", lazy: async () => ({ Component: (await import("./pages/MemoryPage")).MemoryPage }) },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
  {
    path: "/sessions/:sessionId/report",
    hydrateFallbackElement: <Loading />,
    lazy: async () => ({ Component: (await import("./pages/ReportPage")).ReportPage }),
  },
]);
