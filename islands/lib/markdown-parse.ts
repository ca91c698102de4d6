// The markdown of template variable descriptions and template readmes, parsed into a typed tree
// that islands/lib/Markdown.tsx renders as React elements: never as HTML, so markup the source
// writes (<script>, <img onerror>) is only ever text. Pure, no React; bundled into islands, so small.
//
// Blocks: paragraphs (blank-line separated; a single newline is a soft break), headings # to ####,
// lists ("-" or "*" bullets, "1." numbers; an item holds the blocks indented under it, so lists
// nest), fenced code (```). Inline: `code`, **bold** / __bold__, *italic* / _italic_, [text](url)
// and <url> links (http:, https: and mailto: only; any other link is its text alone), backslash
// escapes of ASCII punctuation. Anything else, unterminated marks included, is text.

// The tree has the shape of the HTML it becomes: a node's type is its element (but "h", a heading,
// whose element depends on the page), text is a string.
export type Inline =
  | string
  | { type: "code"; children: [string] }
  | { type: "strong" | "em"; children: Inline[] }
  | { type: "a"; href: string; children: Inline[] };

export type Block =
  | { type: "p"; children: Inline[] }
  /** level 1 for "#" to 4 for "####" */
  | { type: "h"; level: number; children: Inline[] }
  | { type: "ul"; children: ListItem[] }
  | { type: "ol"; start: number; children: ListItem[] }
  | { type: "pre"; children: [{ type: "code"; children: [string] }] };

export type ListItem = { type: "li"; children: Block[] };

const FENCE = /^\s{0,3}(```+)[^`]*$/;
const HEADING = /^\s{0,3}(#{1,4})(?:\s+(.*))?$/;
const ITEM = /^\s{0,3}([-*]|(\d{1,9})\.)(\s+|$)/;
const PUNCT = "[!-/:-@[-`{-~]";
const ESCAPABLE = new RegExp(PUNCT);
const ESCAPED = new RegExp("\\\\(" + PUNCT + ")", "g");
const DELIMITERS = ["**", "__", "*", "_"];

/** Whether a link may point there: http:, https: and mailto: only. */
export const safeUrl = (url: string): boolean => /^(https?:\/\/|mailto:)/i.test(url);

export function parseMarkdown(source: string): Block[] {
  return blocks(source.split(/\r\n?|\n/), 0);
}

const indent = (line: string) => line.length - line.trimStart().length;
const interrupts = (line: string) => FENCE.test(line) || HEADING.test(line) || ITEM.test(line);

// depth: how deep in lists, bounded so that a line of "- - - …" cannot exhaust the stack.
function blocks(lines: string[], depth: number): Block[] {
  const out: Block[] = [];
  let i = 0;
  const at = (n: number) => lines[n] ?? "";
  while (i < lines.length) {
    let line = at(i);
    let m: RegExpMatchArray | null;
    if (!line.trim()) i++;
    else if ((m = line.match(FENCE))) {
      // Runs to the closing fence, at least as long as the opening one, or to the end.
      const close = new RegExp("^\\s{0,3}" + m[1] + "+\\s*$");
      const start = i + 1;
      while (++i < lines.length && !close.test(at(i)));
      out.push({ type: "pre", children: [{ type: "code", children: [lines.slice(start, i++).join("\n")] }] });
    } else if ((m = line.match(HEADING))) {
      out.push({ type: "h", level: m[1]!.length, children: inlines((m[2] ?? "").replace(/(^|\s)#+\s*$/, "").trim()) });
      i++;
    } else if (depth < 8 && (m = line.match(ITEM))) {
      const ordered = !!m[2];
      const items: ListItem[] = [];
      out.push(ordered ? { type: "ol", start: +m[2]!, children: items } : { type: "ul", children: items });
      for (;;) {
        // An item: its first line after the marker, the lines indented to its text (blank lines
        // between them too), and unindented lines that carry on its text.
        const width = m[0].length;
        const item = [line.slice(width)];
        let last = i;
        for (let j = i + 1; j < lines.length; j++) {
          const l = at(j);
          if (!l.trim()) continue;
          if (indent(l) < width && (j > last + 1 || interrupts(l))) break;
          for (let k = last + 1; k <= j; k++) item.push(at(k).slice(Math.min(width, indent(at(k)))));
          last = j;
        }
        items.push({ type: "li", children: blocks(item, depth + 1) });
        for (i = last + 1; i < lines.length && !at(i).trim(); i++);
        line = at(i);
        m = line.match(ITEM);
        if (!m || !!m[2] !== ordered) break;
      }
    } else {
      const text = [line.trim()];
      while (++i < lines.length && at(i).trim() && !interrupts(at(i))) text.push(at(i).trim());
      out.push({ type: "p", children: inlines(text.join("\n")) });
    }
  }
  return out;
}

const hasLink = (nodes: Inline[]): boolean => nodes.some((n) => typeof n !== "string" && (n.type === "a" || hasLink(n.children)));

/** The inline markup of one paragraph or heading; a soft break stays a "\n" in the text, and
 * text next to text is one string. */
export function inlines(source: string): Inline[] {
  const memo = new Map<string, [Inline[], number] | null>();
  // From i to the closing `end` ("" for the end of the source): the nodes and where the closer
  // ends, or null when it never comes. Memoised by start and closer; and when the closer never
  // comes, it would not come either for a parse starting at any place this one went through, so
  // those fail at once: unterminated marks cost linear time, not quadratic or exponential.
  const parse = (i: number, end: string, depth: number): [Inline[], number] | null => {
    const key = end + i;
    if (memo.has(key)) return memo.get(key)!;
    const out: Inline[] = [];
    const text = (t: string) => {
      if (typeof out[out.length - 1] === "string") out[out.length - 1] += t;
      else out.push(t);
    };
    const match = (re: RegExp) => ((re.lastIndex = i), re.exec(source));
    const start = i;
    let result: [Inline[], number] | null = null;
    let m: RegExpExecArray | null;
    const passed: number[] = [];
    while (i < source.length) {
      passed.push(i);
      const c = source[i]!;
      const next = source[i + 1] ?? "";
      if (
        end &&
        source.startsWith(end, i) &&
        (end === "]" || (i > start && /\S/.test(source[i - 1]!) && !(end[0] === "_" && /\w/.test(source[i + end.length] ?? ""))))
      ) {
        result = [out, i + end.length];
        break;
      }
      if (c === "\\" && ESCAPABLE.test(next)) {
        text(next);
        i += 2;
      } else if (c === "`") {
        // A code span closes at a run of exactly as many backticks; else the run is text.
        const ticks = match(/`+/y)![0];
        const close = new RegExp("(?<!`)" + ticks + "(?!`)", "g");
        close.lastIndex = i + ticks.length;
        const found = close.exec(source);
        if (found) {
          out.push({ type: "code", children: [source.slice(i + ticks.length, found.index).replace(/\n/g, " ").replace(/^ (.*\S.*) $/, "$1")] });
          i = found.index + ticks.length;
        } else {
          text(ticks);
          i += ticks.length;
        }
      } else if (c === "<" && (m = match(/<([a-z][\w+.-]+:[^\s<>]*)>/iy)) && safeUrl(m[1]!)) {
        out.push({ type: "a", href: m[1]!, children: [m[1]!] });
        i += m[0].length;
      } else if (c === "[" && depth < 10) {
        const inner = parse(i + 1, "]", depth + 1);
        if (inner) {
          i = inner[1];
          const href = match(/\(\s*((?:\\\S|[^\s()]|\([^\s()]*\))*)\s*\)/y);
          const url = href?.[1]!.replace(ESCAPED, "$1");
          if (href) i += href[0].length;
          if (url && safeUrl(url) && !hasLink(inner[0])) out.push({ type: "a", href: url, children: inner[0] });
          else {
            // Not a link, or not one that may be followed or hold the link in its text: its text stays.
            if (!href) text("[");
            for (const node of inner[0]) typeof node === "string" ? text(node) : out.push(node);
            if (!href) text("]");
          }
        } else if (end === "]") break; // (what the inner parse went through, this one would too)
        else {
          text(c);
          i++;
        }
      } else {
        const d = DELIMITERS.find((d) => source.startsWith(d, i));
        const opens = d && depth < 10 && /\S/.test(source[i + d.length] ?? "") && !(d[0] === "_" && /\w/.test(source[i - 1] ?? ""));
        const inner = opens ? parse(i + d.length, d, depth + 1) : null;
        if (inner) {
          out.push({ type: d![1] ? "strong" : "em", children: inner[0] });
          i = inner[1];
        } else if (opens && d === end) break;
        else {
          text(d ?? c);
          i += d ? d.length : 1;
        }
      }
    }
    if (!end) result = [out, i];
    if (!result) for (const p of passed) memo.set(end + p, null);
    memo.set(key, result);
    return result;
  };
  return parse(0, "", 0)![0];
}
