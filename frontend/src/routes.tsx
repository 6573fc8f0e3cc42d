/**
 * Routes. The home page is in the first bundle; the session and report pages (the graph library and
 * the Markdown renderer come with them) load on first visit, so the first page paints sooner.
 */
import { createBrowserRouter } from "react-router";
import { useTranslation } from "react-i18next";
import { AuthGate } from "./auth/AuthGate";
import { AppLayout } from "./pages/AppLayout";
import { HomePage } from "./pages/HomePage";
import { NotFoundPage } from "./pages/NotFoundPage";

function Loading() {
  const { t } = useTranslation();
  return <p className="p-6 text-sm text-slate-500">{t("app.loading")}</p>;
}

// AuthGate (who am I: login page, or the app) wraps every page.
export const router = createBrowserRouter([
  {
    element: <AuthGate />,
    hydrateFallbackElement: <Loading />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: "/", element: <HomePage /> },
          { path: "/sessions/:sessionId", lazy: async () => ({ Component: (await import("./pages/SessionPage")).SessionPage }) },
          { path: "/memory", lazy: async () => ({ Component: (await import("./pages/MemoryPage")).MemoryPage }) },
          { path: "/account/tokens", lazy: async () => ({ Component: (await import("./pages/TokensPage")).TokensPage }) },
          { path: "/admin/users", lazy: async () => ({ Component: (await import("./pages/AdminUsersPage")).AdminUsersPage }) },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      {
        path: "/sessions/:sessionId/report",
        lazy: async () => ({ Component: (await import("./pages/ReportPage")).ReportPage }),
      },
    ],
  },
]);
