// Markdown (islands/lib/markdown-parse.ts) as React elements, on the server and in islands. Only ever
// elements and text, never HTML: whatever the source writes is escaped by React, and a link is
// made only for http:, https: and mailto: addresses. Styles: static/css/markdown.css (.md).
// createElement rather than JSX: the tree already names its elements, and islands ship this.
import { createElement, type ReactNode } from "react";
import { parseMarkdown, type Block, type Inline, type ListItem } from "./markdown-parse";

const LINK = { rel: "noopener noreferrer nofollow", target: "_blank" };

const nodes = (list: (Block | ListItem | Inline)[], base: number): ReactNode[] =>
  list.map((n, key) =>
    typeof n === "string"
      ? n
      : createElement(
          n.type === "h" ? `h${Math.min(6, n.level + base - 1)}` : n.type,
          n.type === "a" ? { key, href: n.href, ...LINK } : { key, start: n.type === "ol" && n.start !== 1 ? n.start : undefined },
          ...nodes(n.children, base),
        ),
  );

/**
 * `source` as markdown: its blocks in a <div class="md …">, "#" headings as <h{headingBase}>
 * (default h3) and the deeper ones below it; or with `inline`, only the inline markup of its first
 * paragraph, in a <span> (for one-line hints).
 */
export function Markdown({ source, inline, headingBase = 3, className }: { source: string; inline?: boolean; headingBase?: number; className?: string }) {
  const blocks = parseMarkdown(source);
  if (inline) return createElement("span", { className }, ...nodes(blocks.find((b) => b.type === "p")?.children ?? [], headingBase));
  return createElement("div", { className: className ? `md ${className}` : "md" }, ...nodes(blocks, headingBase));
}
