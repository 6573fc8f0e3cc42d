/**
 * The one i18next instance of the app: English, Simplified Chinese and Japanese, bundled (no
 * request at start-up, so the first paint is already in the right language).
 *
 * Invariants:
 *   - The language is the person's choice in this browser (localStorage), else the browser's
 *     preference (`chooseLanguage`); only an explicit choice (`setLanguage`) is stored.
 *   - `<html lang>` always names the language shown (screen readers, fonts, hyphenation).
 *   - A key missing in the language shown falls back to English and is reported on the console
 *     as `i18n: missing key <lang> <key>` (the browser tests fail on it); the Vitest key check
 *     makes that unreachable for keys written in src/.
 *   - Pure text modules (session/*.ts) call `i18n.t` when asked for words, so their callers keep
 *     their signatures; components use `useTranslation()` and re-render on a language change.
 */
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";
import ja from "./locales/ja.json";
import zh from "./locales/zh.json";
import { chooseLanguage, FALLBACK_LANGUAGE, LANGUAGE_INFO, LANGUAGE_STORAGE_KEY, LANGUAGES, isLanguage, type Language } from "./languages";

export const RESOURCES = { en: { translation: en }, zh: { translation: zh }, ja: { translation: ja } } as const;

export const i18n = i18next.createInstance();

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, a sandboxed frame): the browser's preference decides
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

i18n.on("languageChanged", (language) => {
  if (typeof document !== "undefined" && isLanguage(language)) document.documentElement.lang = LANGUAGE_INFO[language].htmlLang;
});

/**
 * Reports a key the language shown lacks, although English has it (then English is shown):
 * i18next's own missing-key handler only fires when the fallback lacks it too.
 */
const reportMissing = {
  type: "postProcessor" as const,
  name: "reportMissing",
  process(value: string, key: string | string[], options: Record<string, unknown>): string {
    const language = i18n.language;
    const keys = Array.isArray(key) ? key : [key];
    if (language !== FALLBACK_LANGUAGE && !keys.some((k) => i18n.exists(k, { ...options, lng: language, fallbackLng: false })))
      console.warn(`i18n: missing key ${language} ${keys.join(",")}`);
    return value;
  },
};

void i18n.use(initReactI18next).use(reportMissing).init({
  resources: RESOURCES,
  lng: chooseLanguage(storedLanguage(), browserLanguages()),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: LANGUAGES,
  interpolation: { escapeValue: false }, // React escapes what it renders
  initAsync: false,
  returnNull: false,
  postProcess: ["reportMissing"],
  saveMissing: true,
  missingKeyHandler: (languages, _namespace, key) => console.warn(`i18n: missing key ${languages.join(",")} ${key}`),
});

/** The language shown now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}

/** The person's choice: shown at once and remembered in this browser. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // not remembered, still shown
  }
  await i18n.changeLanguage(language);
}
