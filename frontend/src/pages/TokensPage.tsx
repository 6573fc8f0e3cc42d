import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { tokenRows } from "../auth/describeToken";
import { tokenNameProblem } from "../auth/validateAccountForms";
import { Alert } from "../components/ui/Alert";
import { Button } from "../components/ui/Button";
import { Card } from "../components/ui/Card";
import { useCreateToken, useRevokeToken, useTokens } from "../hooks/useAccount";

const FIELD = "w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";

/** The header a script sends (code, the same in every language). */
const BEARER_HEADER = "Authorization: Bearer <token>";

/** Personal API tokens: create one (shown once), see when each was last used, revoke. */
export function TokensPage() {
  const nameId = useId();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const { t } = useTranslation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = tokenNameProblem(name);
    setProblem(found);
    if (!found) create.mutate(name, { onSuccess: () => setName("") });
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("tokens.title")}</h1>
        <p className="mt-1 text-slate-600">
          {t("tokens.leadBefore")}
          <code>{BEARER_HEADER}</code>
          {t("tokens.leadAfter")}
        </p>
      </div>
      <Card title={t("tokens.newToken")}>
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="min-w-0 flex-1">
            <label htmlFor={nameId} className="text-sm font-medium text-slate-800">
              {t("tokens.whatUsesIt")}
            </label>
            <input id={nameId} className={`mt-1 ${FIELD}`} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <Button type="submit" busy={create.isPending}>
            {t("tokens.create")}
          </Button>
        </form>
        <div className="mt-3 space-y-2">
          {problem && <Alert>{problem}</Alert>}
          {create.error && <Alert>{create.error.message}</Alert>}
          {create.data && (
            <Alert tone="success" title={t("tokens.created", { name: create.data.name })}>
              <code className="mt-1 block break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900" data-testid="new-token">
                {create.data.token}
              </code>
            </Alert>
          )}
        </div>
      </Card>
      <Card title={t("tokens.yours")}>
        {tokens.error && <Alert>{tokens.error.message}</Alert>}
        {revoke.error && <Alert>{revoke.error.message}</Alert>}
        {tokens.data && tokens.data.length === 0 && <p className="text-sm text-slate-600">{t("tokens.none")}</p>}
        {tokens.data && tokens.data.length > 0 && (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("tokens.name")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("tokens.token")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("tokens.lastUsed")}</th>
                  <th scope="col" className="py-2 pr-3 font-medium">{t("tokens.status")}</th>
                  <th scope="col" className="py-2 font-medium"><span className="sr-only">{t("tokens.actions")}</span></th>
                </tr>
              </thead>
              <tbody>
                {tokenRows(tokens.data, new Date()).map((row) => (
                  <tr key={row.id} className="border-t border-slate-100">
                    <td className="py-2 pr-3">{row.name}</td>
                    <td className="py-2 pr-3 font-mono text-xs">{row.prefix}</td>
                    <td className="py-2 pr-3">{row.lastUsed}</td>
                    <td className="py-2 pr-3">{row.status}</td>
                    <td className="py-2 text-right">
                      {row.active && (
                        <Button
                          variant="secondary"
                          busy={revoke.isPending && revoke.variables === row.id}
                          onClick={() => {
                            if (window.confirm(t("tokens.confirmRevoke", { name: row.name }))) revoke.mutate(row.id);
                          }}
                        >
                          {t("tokens.revoke")}<span className="sr-only"> {row.name}</span>
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
