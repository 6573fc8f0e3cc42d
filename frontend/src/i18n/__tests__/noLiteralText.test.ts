/**
 * The converted files show no English typed into JSX: every text node, and every attribute a
 * person reads or hears (aria-label, title, placeholder, label, ...), comes from `t(...)`. Parsed
 * with the TypeScript compiler, so a comment or a class name never counts. Files are added here
 * as they are converted (the rest of the app is converted next).
 */
import ts from "typescript";
import { describe, expect, test } from "vitest";

const CONVERTED = import.meta.glob(
  [
    "../../pages/{HomePage,NotFoundPage,ReportPage}.tsx",
    "../../components/home/*.tsx",
    "../../components/session/{NowView,AgentActivity,ConnectionNotice,PhaseTimeline,KnowledgeGraph,ClaimDetail,ContextMeter,EngineProgressBar,KnowledgeDocument,MarkdownView,MermaidDiagram,OfflineModelNote}.tsx",
    "../../components/reviews/{ExploreReview,BuildDecision,CuriosityPicker,ReviewForm,EvidenceList,ClaimCard}.tsx",
    "../../components/ui/*.tsx",
  ],
  { query: "?raw", import: "default", eager: true },
) as Record<string, string>;

const READ_ATTRIBUTES = new Set(["aria-label", "title", "placeholder", "label", "alt", "intro", "submitLabel", "description", "help", "hint", "unavailable", "srLabel", "ariaLabel"]);
const WORDS = /\p{L}{2,}/u;
/** Words a person reads; an address pattern ("https://…") is not language. */
const HAS_WORDS = { test: (text: string) => WORDS.test(text) && !/^https?:\/\//.test(text.trim()) };

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

describe("converted files", () => {
  test("the check finds typed-in text (it can fail)", () => {
    expect(literalTexts("x.tsx", `const a = <p title="Hello there">Some words {"more words"} <b>{t("ok.key")}</b> ✓ {" "}</p>;`).sort()).toEqual([
      "Some words",
      "more words",
      'title="Hello there"',
    ]);
  });

  test("every file of this round is checked", () => {
    expect(Object.keys(CONVERTED).length).toBeGreaterThanOrEqual(27);
  });

  test.each(Object.entries(CONVERTED))("%s shows no literal text", (name, source) => {
    expect(literalTexts(name, source)).toEqual([]);
  });
});
