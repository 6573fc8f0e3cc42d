import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { emailProblem, newPasswordProblem } from "../auth/validateAccountForms";
import { useCurrentUser } from "../auth/AuthGate";
import { Alert } from "../components/ui/Alert";
import { Button } from "../components/ui/Button";
import { Card } from "../components/ui/Card";
import { useAddUser, useUpdateUser, useUsage } from "../hooks/useAccount";

const FIELD = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";
const dollars = (value: number) => `$${value.toFixed(2)}`;

/** Admins: every user with their usage (sessions, running, spend, tokens); add, disable, enable. */
export function AdminUsersPage() {
  const me = useCurrentUser();
  const usage = useUsage();
  const update = useUpdateUser();
  const { t } = useTranslation();

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("users.title")}</h1>
        <p className="mt-1 text-slate-600">{t("users.lead")}</p>
      </div>
      <AddUserForm />
      <Card title={t("users.usage")}>
        {usage.error && <Alert>{usage.error.message}</Alert>}
        {update.error && <Alert>{update.error.message}</Alert>}
        {usage.data && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("login.email")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("users.role")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("app.sessions")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("users.running")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("users.thisMonth")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("users.tokens")}</th>
                  <th scope="col" className="py-2 font-medium"><span className="sr-only">{t("tokens.actions")}</span></th>
                </tr>
              </thead>
              <tbody>
                {usage.data.map(({ user, ...u }) => (
                  <tr key={user.id} className="border-t border-slate-100">
                    <td className="py-2 pr-3">
                      {user.email}
                      {user.disabled && <span className="ml-2 text-xs text-rose-700">{t("users.disabled")}</span>}
                    </td>
                    <td className="py-2 pr-3">{t(user.role === "admin" ? "users.roleAdmin" : "users.roleMember")}</td>
                    <td className="py-2 pr-3">{u.sessions_total}</td>
                    <td className="py-2 pr-3">{u.sessions_running}</td>
                    <td className="py-2 pr-3">{dollars(u.spend_this_month_usd)}</td>
                    <td className="py-2 pr-3">{u.active_tokens}</td>
                    <td className="py-2 text-right">
                      {user.id !== me?.user.id && user.email !== "local@localhost" && (
                        <Button
                          variant="secondary"
                          busy={update.isPending && update.variables?.userId === user.id}
                          onClick={() => update.mutate({ userId: user.id, disabled: !user.disabled })}
                        >
                          {user.disabled ? t("users.enable") : t("users.disable")}
                          <span className="sr-only"> {user.email}</span>
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

function AddUserForm() {
  const emailId = useId();
  const passwordId = useId();
  const adminId = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [admin, setAdmin] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const add = useAddUser();
  const { t } = useTranslation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = [emailProblem(email), newPasswordProblem(password)].filter((p): p is string => p !== null);
    setProblems(found);
    if (found.length > 0) return;
    add.mutate(
      { email: email.trim(), role: admin ? "admin" : "member", password: password || null },
      { onSuccess: () => (setEmail(""), setPassword(""), setAdmin(false)) },
    );
  };

  return (
    <Card title={t("users.add")}>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" noValidate>
        <div>
          <label htmlFor={emailId} className="text-sm font-medium text-slate-800">{t("login.email")}</label>
          <input id={emailId} type="email" className={FIELD} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <label htmlFor={passwordId} className="text-sm font-medium text-slate-800">{t("users.passwordLabel")}</label>
          <input
            id={passwordId}
            type="password"
            autoComplete="new-password"
            className={FIELD}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="flex items-center gap-2">
          <input id={adminId} type="checkbox" className="size-4" checked={admin} onChange={(e) => setAdmin(e.target.checked)} />
          <label htmlFor={adminId} className="text-sm text-slate-800">{t("users.adminLabel")}</label>
        </div>
        <div className="sm:text-right">
          <Button type="submit" busy={add.isPending}>{t("users.addSubmit")}</Button>
        </div>
      </form>
      <div className="mt-3 space-y-2">
        {problems.length > 0 && <Alert>{problems.join(" ")}</Alert>}
        {add.error && <Alert>{add.error.message}</Alert>}
        {add.data && (
          <Alert tone="success" title={t("users.added", { email: add.data.user.email })}>
            {add.data.generated_password ? (
              <>
                {t("users.generatedPassword")}{" "}
                <code className="rounded bg-white px-1 font-mono" data-testid="generated-password">{add.data.generated_password}</code>
              </>
            ) : (
              t("users.givenPassword")
            )}
          </Alert>
        )}
      </div>
    </Card>
  );
}
