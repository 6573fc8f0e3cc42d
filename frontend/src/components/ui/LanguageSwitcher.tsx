import { useId } from "react";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/i18n";
import { isLanguage, LANGUAGE_INFO, LANGUAGES } from "../../i18n/languages";

/**
 * The UI language: each language named in itself, so a person who cannot read the current one
 * still finds theirs. The choice is shown at once and remembered in this browser. On a phone the
 * word "Language" is for screen readers only, so the header still fits 390 px.
 */
export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 text-sm ${className}`}>
      <label htmlFor={id} className="sr-only text-slate-600 sm:not-sr-only">
        {t("language.label")}
      </label>
      <select
        id={id}
        data-testid="language-switcher"
        value={i18n.language}
        onChange={(e) => {
          if (isLanguage(e.target.value)) void setLanguage(e.target.value);
        }}
        className="max-w-28 rounded-md border border-slate-300 bg-white px-1.5 py-1 text-sm text-slate-800"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={LANGUAGE_INFO[language].htmlLang}>
            {LANGUAGE_INFO[language].nativeName}
          </option>
        ))}
      </select>
    </div>
  );
}
