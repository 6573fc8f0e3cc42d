/**
 * The three locales say the same things: every key written in src/ exists in English, Chinese and
 * Japanese (with the plural forms each language needs and the same {{placeholders}}), and no
 * locale keeps a key that nothing uses. Keys are found as string literals `"<section>.<name>"`
 * whose first part is a section of the locale files; a template `` `section.${...}` `` uses every
 * key under it (the error codes, typed against the generated schema).
 */
import { describe, expect, test } from "vitest";
import en from "../locales/en.json";
import ja from "../locales/ja.json";
import zh from "../locales/zh.json";

const LOCALES = { en, zh, ja } as const;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Tree = { readonly [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === "string") out.set(key, value);
    else for (const [k, v] of flatten(value, key)) out.set(k, v);
  }
  return out;
}

const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, "");
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const flat = Object.fromEntries(Object.entries(LOCALES).map(([lang, tree]) => [lang, flatten(tree as Tree)])) as Record<keyof typeof LOCALES, Map<string, string>>;
const baseKeys = (lang: keyof typeof LOCALES) => new Set([...flat[lang].keys()].map(baseKey));

const SOURCES = import.meta.glob(["../../**/*.{ts,tsx}", "!../../**/__tests__/**", "!../../test/**", "!../../api/schema.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

function keysUsedInSource(): { literal: Set<string>; prefixes: Set<string> } {
  const sections = Object.keys(en).join("|");
  const literal = new Set<string>();
  const prefixes = new Set<string>();
  for (const text of Object.values(SOURCES)) {
    for (const m of text.matchAll(new RegExp(`["'\`]((?:${sections})\\.[A-Za-z0-9_.]+)["'\`]`, "g"))) literal.add(m[1]!);
    for (const m of text.matchAll(new RegExp(`\`((?:${sections})\\.[A-Za-z0-9_.]*)\\$\\{`, "g"))) prefixes.add(m[1]!);
  }
  return { literal, prefixes };
}

describe("locale files", () => {
  test("the scan sees the source tree", () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(30);
    expect(keysUsedInSource().literal.size).toBeGreaterThan(100);
  });

  test.each(["zh", "ja"] as const)("%s has exactly the keys English has", (lang) => {
    const english = baseKeys("en");
    const other = baseKeys(lang);
    expect([...english].filter((k) => !other.has(k)), `missing in ${lang}`).toEqual([]);
    expect([...other].filter((k) => !english.has(k)), `only in ${lang}`).toEqual([]);
  });

  test.each(["en", "zh", "ja"] as const)("%s has every plural form its language needs", (lang) => {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const plurals = new Set([...flat.en.keys(), ...flat[lang].keys()].filter((k) => PLURAL_SUFFIX.test(k)).map(baseKey));
    const missing = [...plurals].flatMap((base) => categories.filter((c) => !flat[lang].has(`${base}_${c}`)).map((c) => `${base}_${c}`));
    expect(missing).toEqual([]);
  });

  test.each(["zh", "ja"] as const)("%s uses the same placeholders as English, and no text is empty", (lang) => {
    const byBase = (l: keyof typeof LOCALES) => {
      const out = new Map<string, string>();
      for (const [k, v] of flat[l]) out.set(baseKey(k), [...new Set([...(out.get(baseKey(k))?.split(",") ?? []), ...placeholders(v)])].filter(Boolean).sort().join(","));
      return out;
    };
    const english = byBase("en");
    const other = byBase(lang);
    const differing = [...english].filter(([k, p]) => other.has(k) && other.get(k) !== p).map(([k]) => k);
    expect(differing).toEqual([]);
    expect([...flat[lang]].filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
  });

  test("every key written in src/ exists in the locales", () => {
    const english = baseKeys("en");
    const { literal } = keysUsedInSource();
    expect([...literal].filter((k) => !english.has(k))).toEqual([]);
  });

  test("no locale keeps a key nothing uses", () => {
    const { literal, prefixes } = keysUsedInSource();
    const used = (key: string) => literal.has(key) || [...prefixes].some((p) => key.startsWith(p));
    expect([...baseKeys("en")].filter((k) => !used(k))).toEqual([]);
  });
});
