/**
 * Words the document view derives from the Markdown (pure, tested).
 *
 * - A web link reads as its host and its title ("nature.com — Queueing in emergency rooms"), so
 *   a reader sees where it leads before following it; a link whose text is its own address reads
 *   as the host alone. Other links keep their text.
 * - The document's title is its first level-one heading (the server writes the problem frame's
 *   outcome, or the problem, there); the browser tab shows it.
 */

/** The host of an http(s) address, without "www.", or null for anything else. */
export function linkHost(href: string): string | null {
  try {
    const url = new URL(href);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.hostname.replace(/^www\./, "");
  } catch {
    return null;
  }
}

export function linkText(href: string, text: string): string {
  const host = linkHost(href);
  const title = text.trim();
  if (host === null) return title || href;
  const bare = (s: string) => s.replace(/^https?:\/\//, "").replace(/^www\./, "").replace(/\/$/, "");
  if (!title || bare(title) === bare(href) || bare(title) === host) return host;
  return `${host} — ${title}`;
}

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'" };
const decodeEntities = (text: string) => text.replace(/&(lt|gt|amp|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? "");

/** The first `# heading` of the Markdown (outside code blocks), without Markdown escapes. */
export function documentTitle(markdown: string): string | null {
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) return decodeEntities(match[1]!.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1"));
  }
  return null;
}
