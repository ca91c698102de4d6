// The markdown parser: every construct, marks inside marks, escapes, links that may not be followed,
// markup written as text, unterminated marks, and input built to make a naive parser slow.
import { describe, expect, test } from "bun:test";
import { inlines, parseMarkdown, safeUrl, type Block } from "./markdown-parse";

const p = (...children: Extract<Block, { type: "p" }>["children"]): Block => ({ type: "p", children });
const li = (...children: Block[]) => ({ type: "li" as const, children });

describe("blocks", () => {
  test("empty and blank input is no blocks", () => {
    expect(parseMarkdown("")).toEqual([]);
    expect(parseMarkdown("  \n\n\t\n")).toEqual([]);
  });

  test("paragraphs split at blank lines; a single newline is a soft break, lines trimmed", () => {
    expect(parseMarkdown("one\n  two  \n\n\nthree\r\nfour\rfive")).toEqual([p("one\ntwo"), p("three\nfour\nfive")]);
  });

  test("headings # to ####, with the closing #s dropped; ##### and #x are text", () => {
    expect(parseMarkdown("# One\n## Two ##\n### Three\n#### Four\n##### Five\n#six\n# C#")).toEqual([
      { type: "h", level: 1, children: ["One"] },
      { type: "h", level: 2, children: ["Two"] },
      { type: "h", level: 3, children: ["Three"] },
      { type: "h", level: 4, children: ["Four"] },
      p("##### Five\n#six"),
      { type: "h", level: 1, children: ["C#"] },
    ]);
  });

  test("a heading, a list or a fence ends a paragraph", () => {
    expect(parseMarkdown("text\n# Head\ntext\n- item\ntext\n```\ncode\n```")).toEqual([
      p("text"),
      { type: "h", level: 1, children: ["Head"] },
      p("text"),
      { type: "ul", children: [li(p("item\ntext"))] },
      { type: "pre", children: [{ type: "code", children: ["code"] }] },
    ]);
  });

  test("bullet lists with - and *, numbered lists keep their first number", () => {
    expect(parseMarkdown("- a\n* b\n\n1. one\n2. two\n\ntext\n\n7. seven\n9. nine")).toEqual([
      { type: "ul", children: [li(p("a")), li(p("b"))] },
      { type: "ol", start: 1, children: [li(p("one")), li(p("two"))] },
      p("text"),
      { type: "ol", start: 7, children: [li(p("seven")), li(p("nine"))] },
    ]);
  });

  test("a bullet list after a numbered one is a new list; blank lines between items keep one list", () => {
    expect(parseMarkdown("1. one\n- dash\n\n- again")).toEqual([
      { type: "ol", start: 1, children: [li(p("one"))] },
      { type: "ul", children: [li(p("dash")), li(p("again"))] },
    ]);
  });

  test("lines indented under an item belong to it: continued text, further paragraphs, nested lists", () => {
    expect(parseMarkdown("- a\n  more\n\n  second\n  - inner\n  - inner 2\n    1. deep\n- b\nlazy\n\nafter")).toEqual([
      {
        type: "ul",
        children: [
          li(p("a\nmore"), p("second"), { type: "ul", children: [li(p("inner")), li(p("inner 2"), { type: "ol", start: 1, children: [li(p("deep"))] })] }),
          li(p("b\nlazy")),
        ],
      },
      p("after"),
    ]);
  });

  test("an empty item, and markers not followed by a space, are not lists", () => {
    expect(parseMarkdown("-\n\n-x\n*y*\n---\n1.5 kg")).toEqual([
      { type: "ul", children: [li()] },
      p("-x\n", { type: "em", children: ["y"] }, "\n---\n1.5 kg"),
    ]);
  });

  test("fenced code keeps its lines as they are, markup and blank lines included", () => {
    expect(parseMarkdown("```sh\n  echo **hi** <b>\n\n# not a heading\n```\nafter")).toEqual([
      { type: "pre", children: [{ type: "code", children: ["  echo **hi** <b>\n\n# not a heading"] }] },
      p("after"),
    ]);
  });

  test("a fence closes only with as many backticks or more; unclosed, it runs to the end", () => {
    expect(parseMarkdown("````\n```\n`````\nx")).toEqual([{ type: "pre", children: [{ type: "code", children: ["```"] }] }, p("x")]);
    expect(parseMarkdown("```\nopen\n\nstill")).toEqual([{ type: "pre", children: [{ type: "code", children: ["open\n\nstill"] }] }]);
  });

  test("a fence inside a list item", () => {
    expect(parseMarkdown("- run:\n  ```\n  make\n  ```")).toEqual([
      { type: "ul", children: [li(p("run:"), { type: "pre", children: [{ type: "code", children: ["make"] }] })] },
    ]);
  });

  test("markup is not interpreted: HTML is text", () => {
    expect(parseMarkdown("<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>")).toEqual([
      p("<script>alert(1)</script>"),
      p("<img src=x onerror=alert(1)>"),
    ]);
  });

  test("deeply nested list markers stay bounded", () => {
    const blocks = parseMarkdown("- ".repeat(20000) + "x");
    let depth = 0;
    for (let b: Block | undefined = blocks[0]; b?.type === "ul"; b = b.children[0]?.children[0]) depth++;
    expect(depth).toBe(8);
  });
});

describe("inline", () => {
  test("plain text is one string", () => {
    expect(inlines("just text, with 2 * 3 = 6 and a_b_c")).toEqual(["just text, with 2 * 3 = 6 and a_b_c"]);
    expect(inlines("")).toEqual([]);
  });

  test("code spans: any run of backticks, one space trimmed each side, newlines as spaces, no markup inside", () => {
    expect(inlines("`a` and `` b ` c `` and ` **x** ` and `one\ntwo`")).toEqual([
      { type: "code", children: ["a"] },
      " and ",
      { type: "code", children: ["b ` c"] },
      " and ",
      { type: "code", children: ["**x**"] },
      " and ",
      { type: "code", children: ["one two"] },
    ]);
    expect(inlines("```inline```")).toEqual([{ type: "code", children: ["inline"] }]);
  });

  test("bold and italic, with * and _", () => {
    expect(inlines("**b** __b__ *i* _i_")).toEqual([
      { type: "strong", children: ["b"] },
      " ",
      { type: "strong", children: ["b"] },
      " ",
      { type: "em", children: ["i"] },
      " ",
      { type: "em", children: ["i"] },
    ]);
  });

  test("marks inside marks", () => {
    expect(inlines("**bold *and italic* `code`**")).toEqual([
      { type: "strong", children: ["bold ", { type: "em", children: ["and italic"] }, " ", { type: "code", children: ["code"] }] },
    ]);
    expect(inlines("*it **bold** it*")).toEqual([{ type: "em", children: ["it ", { type: "strong", children: ["bold"] }, " it"] }]);
    expect(inlines("***both***")).toEqual([{ type: "strong", children: [{ type: "em", children: ["both"] }] }]);
    expect(inlines("_a *b* c_")).toEqual([{ type: "em", children: ["a ", { type: "em", children: ["b"] }, " c"] }]);
  });

  test("_ does not mark inside words; * does", () => {
    expect(inlines("snake_case_name and un*believ*able")).toEqual(["snake_case_name and un", { type: "em", children: ["believ"] }, "able"]);
  });

  test("a mark must hug its text", () => {
    expect(inlines("a * b * c and ** d **")).toEqual(["a * b * c and ** d **"]);
  });

  test("unterminated marks stay text", () => {
    expect(inlines("**bold")).toEqual(["**bold"]);
    expect(inlines("*italic")).toEqual(["*italic"]);
    expect(inlines("_italic and `code")).toEqual(["_italic and `code"]);
    expect(inlines("[text")).toEqual(["[text"]);
    expect(inlines("**a *b** c")).toEqual(["**a ", { type: "em", children: ["b"] }, "* c"]);
    expect(inlines("*a **b* c")).toEqual([{ type: "em", children: ["a **b"] }, " c"]);
  });

  test("backslash escapes punctuation; before anything else it is a backslash", () => {
    expect(inlines("\\*not\\* \\_no\\_ \\`x\\` \\[a\\](b) \\\\ \\<c\\> \\a \\")).toEqual(["*not* _no_ `x` [a](b) \\ <c> \\a \\"]);
    expect(inlines("*a\\*b*")).toEqual([{ type: "em", children: ["a*b"] }]);
  });

  test("links: [text](url) with marks in the text, escapes and one level of parentheses in the url", () => {
    expect(inlines("see [the **docs**](https://example.com/a_b?x=1&y=2) now")).toEqual([
      "see ",
      { type: "a", href: "https://example.com/a_b?x=1&y=2", children: ["the ", { type: "strong", children: ["docs"] }] },
      " now",
    ]);
    expect(inlines("[w](https://en.wikipedia.org/wiki/Kiln_(x)) [e]( mailto:a@b.c ) [s](HTTP://X/\\))")).toEqual([
      { type: "a", href: "https://en.wikipedia.org/wiki/Kiln_(x)", children: ["w"] },
      " ",
      { type: "a", href: "mailto:a@b.c", children: ["e"] },
      " ",
      { type: "a", href: "HTTP://X/)", children: ["s"] },
    ]);
  });

  test("autolinks <url>", () => {
    expect(inlines("at <https://example.com/x> or <mailto:a@b.c>")).toEqual([
      "at ",
      { type: "a", href: "https://example.com/x", children: ["https://example.com/x"] },
      " or ",
      { type: "a", href: "mailto:a@b.c", children: ["mailto:a@b.c"] },
    ]);
  });

  test("links anywhere but http:, https: and mailto: are their text alone", () => {
    expect(inlines("[click](javascript:alert(1)) [x](JavaScript:void) [d](data:text/html,hi) [r](/relative) [f](ftp://h) [e]()")).toEqual([
      "click x d r f e",
    ]);
    expect(inlines("<javascript:alert(1)> <data:text/html,x>")).toEqual(["<javascript:alert(1)> <data:text/html,x>"]);
    expect(safeUrl("https://x")).toBe(true);
    expect(safeUrl("mailto:x@y")).toBe(true);
    expect(safeUrl(" https://x")).toBe(false);
    expect(safeUrl("javascript:https://x")).toBe(false);
  });

  test("brackets without a url, and links in link text, stay text", () => {
    expect(inlines("[not a link] and [x] (y)")).toEqual(["[not a link] and [x] (y)"]);
    expect(inlines("[a [b](https://b)](https://a)")).toEqual(["a ", { type: "a", href: "https://b", children: ["b"] }]);
  });

  test("HTML is text", () => {
    expect(inlines('<b onclick="x">hi</b> &amp; <script>alert(1)</script>')).toEqual(['<b onclick="x">hi</b> &amp; <script>alert(1)</script>']);
  });

  test("input built to make a naive parser slow takes linear time", () => {
    const t = performance.now();
    for (const s of ["*a ", "[", "**a _b [c ", "`` ` ", "*a **b _c __d [e `"]) inlines(s.repeat(4000));
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
