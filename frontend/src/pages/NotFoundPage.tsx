import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">{t("notFound.title")}</h1>
      <p className="mt-2 text-slate-600">
        {t("notFound.body")}{" "}
        <Link className="text-indigo-700 underline" to="/">
          {t("notFound.back")}
        </Link>
      </p>
    </div>
  );
}
