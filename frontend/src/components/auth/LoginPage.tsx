import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "../ui/LanguageSwitcher";
import { loginProblems } from "../../auth/validateAccountForms";
import { useLogin } from "../../hooks/useAccount";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";

const FIELD = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";

/** Email and password; the server's answer (wrong password, disabled account…) is shown verbatim. */
export function LoginPage() {
  const emailId = useId();
  const passwordId = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const login = useLogin();
  const { t } = useTranslation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = loginProblems(email, password);
    setProblems(found);
    if (found.length === 0) login.mutate({ email, password });
  };

  return (
    <main className="grid min-h-screen place-items-center bg-slate-50 px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="mb-3 flex justify-end text-sm text-slate-600">
          <LanguageSwitcher />
        </div>
        <h1 className="text-xl font-semibold text-slate-900">{t("login.title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("login.askAdmin")}</p>
        <form className="mt-5 space-y-4" onSubmit={submit} noValidate>
          <div>
            <label htmlFor={emailId} className="text-sm font-medium text-slate-800">
              {t("login.email")}
            </label>
            <input
              id={emailId}
              type="email"
              autoComplete="username"
              className={FIELD}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </div>
          <div>
            <label htmlFor={passwordId} className="text-sm font-medium text-slate-800">
              {t("login.password")}
            </label>
            <input
              id={passwordId}
              type="password"
              autoComplete="current-password"
              className={FIELD}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </div>
          {problems.length > 0 && (
            <Alert>
              <ul>
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </Alert>
          )}
          {login.error && <Alert>{login.error.message}</Alert>}
          <Button type="submit" busy={login.isPending} className="w-full">
            {t("login.submit")}
          </Button>
        </form>
      </div>
    </main>
  );
}
