import { createBrowserRouter } from "react-router";
import { AppLayout } from "./pages/AppLayout";
import { HomePage } from "./pages/HomePage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ReportPage } from "./pages/ReportPage";
import { SessionPage } from "./pages/SessionPage";

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: "/", element: <HomePage /> },
      { path: "/sessions/:sessionId", element: <SessionPage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
  { path: "/sessions/:sessionId/report", element: <ReportPage /> },
]);
