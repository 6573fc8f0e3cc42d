import { useTranslation } from "react-i18next";

/** Whether a session's model label names the built-in offline model (it writes English only). */
export function isOfflineModel(model: string | null | undefined): boolean {
  return (model ?? "").trim().toLowerCase().startsWith("offline");
}

/**
 * Said where the agent's words appear when the UI is not in English and the offline model wrote
 * them: the UI is translated, the agent's text is not (real models write in the problem's language).
 */
export function OfflineModelNote({ model, className = "" }: { model: string | null | undefined; className?: string }) {
  const { t, i18n } = useTranslation();
  if (i18n.language === "en" || !isOfflineModel(model)) return null;
  return (
    <p className={`text-xs text-slate-600 ${className}`} data-testid="offline-model-note">
      {t("language.offlineModelEnglish")}
    </p>
  );
}
