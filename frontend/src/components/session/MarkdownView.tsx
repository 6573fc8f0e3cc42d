import Markdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { ScrollArea } from "../ui/ScrollArea";

/**
 * Markdown rendered safely: raw HTML in the source is dropped (sanitised), links open in a new tab.
 * Lines keep a comfortable measure (≤ ~75 characters); tables scroll inside a focusable box and
 * long words (URLs) wrap, so a phone never scrolls sideways.
 */
export function MarkdownView({ markdown }: { markdown: string }) {
  return (
    <div className="markdown-body max-w-[75ch] break-words text-[15px] leading-relaxed text-slate-800 [&_a]:text-indigo-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-3 [&_blockquote]:text-slate-600 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:mb-3 [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:mb-2 [&_h2]:mt-6 [&_h2]:border-b [&_h2]:border-slate-200 [&_h2]:pb-1 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mb-1 [&_h3]:mt-4 [&_h3]:font-semibold [&_li]:my-0.5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-100 [&_pre]:p-3 [&_pre]:text-xs [&_table]:w-full [&_table]:text-sm [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_ul]:list-disc [&_ul]:pl-6">
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
          // A code block scrolls sideways: focusable so a keyboard can scroll it.
          pre: ({ node: _node, ...props }) => <pre tabIndex={0} {...props} />,
          table: ({ node: _node, ...props }) => (
            <ScrollArea label="Table (scrolls sideways)" className="my-3">
              <table {...props} />
            </ScrollArea>
          ),
        }}
      >
        {markdown}
      </Markdown>
    </div>
  );
}
