/**
 * No component shows English typed into JSX: in every .tsx file of src/ (tests aside), every text
 * node, and every attribute a person reads or hears (aria-label, title, placeholder, label, ...),
 * comes from `t(...)`. Parsed with the TypeScript compiler, so a comment or a class name never
 * counts; an HTML entity (`&nbsp;`) is not a word. A new component is checked without being listed.
 */
import ts from "typescript";
import { describe, expect, test } from "vitest";

const COMPONENTS = import.meta.glob(["../../**/*.tsx", "!../../**/__tests__/**", "!../../test/**"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const READ_ATTRIBUTES = new Set(["aria-label", "title", "placeholder", "label", "alt", "intro", "submitLabel", "description", "help", "hint", "unavailable", "srLabel", "ariaLabel"]);
const WORDS = /\p{L}{2,}/u;
/** Words a person reads; an address pattern ("https://…") is not language. */
const HAS_WORDS = { test: (text: string) => WORDS.test(text.replace(/&[a-z]+;/g, "")) && !/^https?:\/\//.test(text.trim()) };

export function literalTexts(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_WORDS.test(node.text)) found.push(node.text.trim());
    if (ts.isJsxExpression(node) && node.expression && ts.isStringLiteralLike(node.expression) && HAS_WORDS.test(node.expression.text) && ts.isJsxElement(node.parent))
      found.push(node.expression.text);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = node.initializer;
      const text = ts.isStringLiteral(value) ? value.text : ts.isJsxExpression(value) && value.expression && ts.isStringLiteralLike(value.expression) ? value.expression.text : "";
      if (HAS_WORDS.test(text)) found.push(`${node.name.getText()}="${text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("every component", () => {
  test("the check finds typed-in text (it can fail)", () => {
    expect(literalTexts("x.tsx", `const a = <p title="Hello there">Some words {"more words"} <b>{t("ok.key")}</b> ✓&nbsp;{" "}</p>;`).sort()).toEqual([
      "Some words",
      "more words",
      'title="Hello there"',
    ]);
  });

  test("the whole tree is checked, pages and auth included", () => {
    const names = Object.keys(COMPONENTS);
    expect(names.length).toBeGreaterThanOrEqual(50);
    expect(names).toEqual(expect.arrayContaining(["../../pages/SessionPage.tsx", "../../pages/AppLayout.tsx", "../../components/auth/LoginPage.tsx", "../../routes.tsx"]));
    expect(names.some((name) => name.includes("__tests__"))).toBe(false);
  });

  test.each(Object.entries(COMPONENTS))("%s shows no literal text", (name, source) => {
    expect(literalTexts(name, source)).toEqual([]);
  });
});

/**
 * The pure modules (.ts) that hand words to components (validation messages, status words,
 * summaries) build them with `i18n.t`: a string literal of three or more words is English typed
 * in, unless it goes to the console or into an Error a developer reads.
 */
const MODULES = import.meta.glob(["../../**/*.ts", "!../../**/__tests__/**", "!../../test/**", "!../../**/*.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const SENTENCE = /\p{L}{2,}(?:[ ,]+\p{L}{2,}){2,}/u;
const FOR_DEVELOPERS = /^(console\.\w+|i18n\.t|t)$|Error$/;

export function sentenceLiterals(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const forDevelopers = (node: ts.Node): boolean => {
    for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
      if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && FOR_DEVELOPERS.test(p.expression.getText(file))) return true;
      if (ts.isImportDeclaration(p)) return true;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
    if (literal && SENTENCE.test(node.text) && !forDevelopers(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("every pure module", () => {
  test("the check finds a sentence typed in, and leaves logs, errors and keys alone (it can fail)", () => {
    const source = `const a = "Choose the verdict now"; const b = i18n.t("x.y"); console.warn("this is for developers"); throw new StalledError("the network is gone"); const c = \`Claim \${n} is not part\`;`;
    expect(sentenceLiterals("x.ts", source)).toEqual(["Choose the verdict now", " is not part"]);
  });

  test("the scan sees the modules", () => {
    expect(Object.keys(MODULES).length).toBeGreaterThan(40);
  });

  test.each(Object.entries(MODULES))("%s builds its words with i18n.t", (name, source) => {
    expect(sentenceLiterals(name, source)).toEqual([]);
  });
});
