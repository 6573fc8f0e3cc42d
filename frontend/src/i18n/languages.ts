/**
 * The UI's languages and how one is chosen (pure, tested): a choice the person made in this
 * browser (kept in localStorage) wins; otherwise the browser's preferred languages in order, by
 * their primary subtag (any `zh-*` reads Simplified Chinese, any `ja-*` Japanese); else English.
 */
export const LANGUAGES = ["en", "zh", "ja"] as const;
export type Language = (typeof LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = "en";
export const LANGUAGE_STORAGE_KEY = "forge.language";

/** The name of each language in itself (the switcher shows these), and its `<html lang>` tag. */
export const LANGUAGE_INFO: Readonly<Record<Language, { readonly nativeName: string; readonly htmlLang: string }>> = {
  en: { nativeName: "English", htmlLang: "en" },
  zh: { nativeName: "简体中文", htmlLang: "zh-Hans" },
  ja: { nativeName: "日本語", htmlLang: "ja" },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The language a tag like "zh-CN", "ja", "en-GB" reads in, if the UI has it. */
export function languageOfTag(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return isLanguage(primary) ? primary : null;
}

export function chooseLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}
