import { useTranslation } from "react-i18next";
import { ProblemInput } from "../components/home/ProblemInput";
import { SessionList } from "../components/home/SessionList";
import { Card } from "../components/ui/Card";

export function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <div className="min-w-0 space-y-3 lg:col-span-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("home.title")}</h1>
          <p className="mt-1 text-slate-600">{t("home.lead")}</p>
        </div>
        <Card>
          <ProblemInput />
        </Card>
      </div>
      <div className="min-w-0 lg:col-span-2">
        <Card title={t("home.sessionsTitle")}>
          <SessionList />
        </Card>
      </div>
    </div>
  );
}
