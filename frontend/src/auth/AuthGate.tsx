/**
 * The root of every route: asks the server who we are (GET /api/v1/auth/me) and shows the login
 * page, the app, or what went wrong (see `authView`). With FORGE_AUTH off the server answers the
 * local user and nothing about accounts is shown. Any later 401 (the login expired or was ended
 * elsewhere) brings the login page back.
 */
import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect } from "react";
import { Outlet } from "react-router";
import { useTranslation } from "react-i18next";
import { onUnauthorized } from "../api/client";
import { Alert } from "../components/ui/Alert";
import { LoginPage } from "../components/auth/LoginPage";
import { ME_KEY, useMe } from "../hooks/useAccount";
import { authView, type Me } from "./authView";

const MeContext = createContext<Me | null>(null);

/** The caller, inside the gate; null only outside it (tests of single components). */
export function useCurrentUser(): Me | null {
  return useContext(MeContext);
}

export function AuthGate() {
  const client = useQueryClient();
  const { data, error, isPending } = useMe();
  const { t } = useTranslation();
  useEffect(() => {
    // Only a login that was on can end: on the login page a 401 (a wrong password) is its own answer.
    onUnauthorized(() => {
      if (client.getQueryData(ME_KEY)) void client.invalidateQueries({ queryKey: ME_KEY });
    });
  }, [client]);
  const view = authView({ me: data, error, pending: isPending });
  if (view.kind === "loading") return <p className="p-6 text-sm text-slate-500">{t("app.loading")}</p>;
  if (view.kind === "login") return <LoginPage />;
  if (view.kind === "error")
    return (
      <main className="mx-auto max-w-xl p-6">
        <h1 className="mb-3 text-xl font-semibold">{t("app.name")}</h1>
        <Alert title={t("app.unreachable")}>{view.message}</Alert>
      </main>
    );
  return (
    <MeContext.Provider value={view.me}>
      <Outlet />
    </MeContext.Provider>
  );
}
