import type { Element, ElementContent } from "hast";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import Markdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { linkText } from "../../document/documentText";
import { ScrollArea } from "../ui/ScrollArea";

// The diagram code (dagre) loads only when a document holds a ```mermaid block.
const MermaidDiagram = lazy(() => import("./MermaidDiagram").then((m) => ({ default: m.MermaidDiagram })));

/** The text of a hast subtree (what a link or a code block says). */
function textOf(node: ElementContent | Element | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/** The source of a ```mermaid block: the `pre`'s only child is `code.language-mermaid`. */
function mermaidSource(pre: Element | undefined): string | null {
  const code = pre?.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
  const classes = code?.properties.className;
  return Array.isArray(classes) && classes.includes("language-mermaid") ? textOf(code) : null;
}

const SHARED =
  "markdown-body break-words text-slate-800 [&_a]:text-indigo-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-3 [&_blockquote]:text-slate-600 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_li]:my-0.5 [&_ol]:list-decimal [&_ol]:pl-6 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-100 [&_pre]:p-3 [&_pre]:text-xs [&_table]:w-full [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_ul]:list-disc [&_ul]:pl-6";

/**
 * Text blocks keep a comfortable measure (58ch: about 76 characters of English text a line);
 * tables and diagrams may use the whole width, inside a box that scrolls sideways.
 */
const VARIANTS = {
  document:
    "text-[15px] leading-relaxed [&_blockquote]:max-w-[58ch] [&_h1]:mb-3 [&_h1]:max-w-[40ch] [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mb-2 [&_h2]:mt-6 [&_h2]:max-w-[58ch] [&_h2]:border-b [&_h2]:border-slate-200 [&_h2]:pb-1 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mb-1 [&_h3]:mt-4 [&_h3]:max-w-[58ch] [&_h3]:font-semibold [&_li]:max-w-[58ch] [&_p]:my-2 [&_p]:max-w-[58ch] [&_table]:text-sm",
  compact: "text-sm leading-relaxed [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_p]:my-1 [&_p:first-child]:mt-0 [&_p:last-child]:mb-0",
} as const;

/**
 * Markdown rendered safely: raw HTML in the source is dropped (sanitised), links open in a new tab
 * and read as host — title, ```mermaid flowcharts are drawn (the source stays in the download).
 * Tables and code blocks scroll inside a focusable box, long words (URLs) wrap, so a phone never
 * scrolls sideways.
 */
export function MarkdownView({ markdown, variant = "document" }: { markdown: string; variant?: keyof typeof VARIANTS }) {
  const { t } = useTranslation();
  const components: Components = {
    a: ({ node, href, children: _children, ...props }) => (
      <a {...props} href={href} target="_blank" rel="noreferrer noopener">
        {href ? linkText(href, textOf(node)) : textOf(node)}
      </a>
    ),
    pre: ({ node, ...props }) => {
      const source = mermaidSource(node);
      if (source === null) return <pre tabIndex={0} {...props} />; // focusable: a keyboard can scroll it
      return (
        <Suspense fallback={<pre tabIndex={0}>{source}</pre>}>
          <MermaidDiagram source={source} />
        </Suspense>
      );
    },
    table: ({ node: _node, ...props }) => (
      <ScrollArea label={t("document.tableLabel")} className="my-3">
        <table {...props} />
      </ScrollArea>
    ),
  };
  return (
    <div className={`${SHARED} ${VARIANTS[variant]}`}>
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
        {markdown}
      </Markdown>
    </div>
  );
}
