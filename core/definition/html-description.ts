// PufferPanel's variable descriptions are HTML (`<a href='…'>the downloads</a>`); Kiln's are
// markdown, rendered as React elements (islands/lib/markdown-parse.ts), so HTML would show as
// tags. Converting keeps the links and nothing else: a link becomes a markdown link only when it
// points to an http(s) address, every other tag is removed and its text kept, and the common
// entities are decoded into text (which the renderer shows as text, never as markup).

/** Whether a description holds HTML this module would change (a tag or an entity). */
export function hasHtml(text: string): boolean {
  return /<\/?[a-z][^>]*>|&(?:lt|gt|quot|apos|nbsp|amp|#39|#x27);/i.test(text);
}

/**
 * `<a href='x'>text</a>` (either quote, or none) becomes `[text](x)` when x is an http(s) URL,
 * else its text alone; `<br>` a line break; every other tag goes; entities are decoded.
 */
export function htmlToMarkdown(html: string): string {
  const linked = html.replace(
    /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi,
    (_whole, dq: string | undefined, sq: string | undefined, bare: string | undefined, inner: string) => {
      const url = decodeEntities((dq ?? sq ?? bare ?? "").trim());
      const text = decodeEntities(stripTags(inner)).trim();
      if (!/^https?:\/\/[^\s]/i.test(url)) return text;
      const label = (text || url).replace(/[[\]]/g, "\\$&");
      return `[${label}](${url.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)})`;
    },
  );
  return decodeEntities(stripTags(linked.replace(/<br\s*\/?>/gi, "\n"))).trim();
}

function stripTags(html: string): string {
  return html.replace(/<\/?[a-z][^>]*>/gi, "");
}

function decodeEntities(text: string): string {
  return text
    .replace(/&(lt|gt|quot|apos|nbsp|#39|#x27);/gi, (whole, name: string) =>
      ({ lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'", "#x27": "'" })[name.toLowerCase()] ?? whole,
    )
    .replace(/&amp;/gi, "&");
}
