// The Markdown component: the HTML it renders on the server (exact, for a few sources), that the
// source's markup is only ever text and a javascript: link never an <a>; and that an island
// hydrates over that HTML without a mismatch or a warning.
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { Markdown } from "./Markdown";
import { installDom, type InstalledDom } from "../test-support";

const html = (source: string, props: { inline?: boolean; headingBase?: number; className?: string } = {}) =>
  renderToStaticMarkup(<Markdown source={source} {...props} />);
const A = 'rel="noopener noreferrer nofollow" target="_blank"';

describe("Markdown on the server", () => {
  test("nothing to show is an empty div, or an empty span", () => {
    expect(html("")).toBe('<div class="md"></div>');
    expect(html("", { inline: true })).toBe("<span></span>");
  });

  test("paragraphs with marks, code and links", () => {
    expect(html("Accept the [Minecraft EULA](https://aka.ms/MinecraftEULA), **then** run `start`.\nSee <mailto:a@b.c> _too_.\n\nNext")).toBe(
      '<div class="md"><p>Accept the <a href="https://aka.ms/MinecraftEULA" ' +
        A +
        '>Minecraft EULA</a>, <strong>then</strong> run <code>start</code>.\nSee <a href="mailto:a@b.c" ' +
        A +
        ">mailto:a@b.c</a> <em>too</em>.</p><p>Next</p></div>",
    );
  });

  test("headings start at headingBase (3 by default) and stop at h6", () => {
    expect(html("# One\n## Two\n#### Four")).toBe('<div class="md"><h3>One</h3><h4>Two</h4><h6>Four</h6></div>');
    expect(html("# One\n## Two", { headingBase: 2 })).toBe('<div class="md"><h2>One</h2><h3>Two</h3></div>');
  });

  test("lists, nested, and a numbered list's first number when it is not 1", () => {
    expect(html("- a\n  - b\n- c\n\ntext\n\n3. three\n4. four\n\n1. one")).toBe(
      '<div class="md"><ul><li><p>a</p><ul><li><p>b</p></li></ul></li><li><p>c</p></li></ul><p>text</p>' +
        '<ol start="3"><li><p>three</p></li><li><p>four</p></li><li><p>one</p></li></ol></div>',
    );
    expect(html("1. one")).toBe('<div class="md"><ol><li><p>one</p></li></ol></div>');
  });

  test("fenced code, escaped", () => {
    expect(html("```html\n<b>&amp;</b>\n  indented\n```")).toBe('<div class="md"><pre><code>&lt;b&gt;&amp;amp;&lt;/b&gt;\n  indented</code></pre></div>');
  });

  test("className is added to md", () => {
    expect(html("hint", { className: "field-hint" })).toBe('<div class="md field-hint"><p>hint</p></div>');
  });

  test("inline: the inline markup of the first paragraph alone, in a span", () => {
    expect(html("# Title\n\n**One** line\nmore\n\n- list\n\nsecond", { inline: true, className: "x" })).toBe('<span class="x"><strong>One</strong> line\nmore</span>');
    expect(html("- only a list", { inline: true })).toBe("<span></span>");
  });

  test("HTML in the source is shown, escaped, never markup", () => {
    const out = html('<script>alert("x")</script>\n\n*<img src=x onerror=alert(1)>*\n\n[<b>](https://e.com/"onmouseover="x)');
    expect(out).toBe(
      '<div class="md"><p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p><p><em>&lt;img src=x onerror=alert(1)&gt;</em></p>' +
        '<p><a href="https://e.com/&quot;onmouseover=&quot;x" ' +
        A +
        ">&lt;b&gt;</a></p></div>",
    );
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
  });

  test("a javascript: (or data:, or relative) link is its text, not an <a>", () => {
    expect(html("[click me](javascript:alert(document.cookie)) <javascript:alert(1)> [d](data:text/html,x) [r](/admin)")).toBe(
      '<div class="md"><p>click me &lt;javascript:alert(1)&gt; d r</p></div>',
    );
    expect(html("[x](javascript:alert(1))", { inline: true })).toBe("<span>x</span>");
  });
});

describe("Markdown in an island", () => {
  let dom: InstalledDom;
  beforeAll(() => {
    dom = installDom("https://panel.example/");
  });
  afterAll(() => dom.restore());

  test("hydrates over the server's HTML: no mismatch, no warning (keys included)", async () => {
    const source = "# Readme\n\nIntro with **bold**, `code`,\na [link](https://example.com).\n\n- one\n- two\n  1. a\n  2. b\n\n```\nx < y\n```";
    const element = <Markdown source={source} />;
    const container = dom.window.document.createElement("div");
    container.innerHTML = renderToString(element);
    dom.window.document.body.append(container);
    const errors: unknown[] = [];
    const consoleError = spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args));
    try {
      await dom.hydrate(container, element, { onRecoverableError: (error) => void errors.push(error) });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      consoleError.mockRestore();
    }
    expect(errors).toEqual([]);
    expect(container.querySelectorAll("li").length).toBe(4);
    expect(container.querySelector("a")!.getAttribute("href")).toBe("https://example.com");
  });
});
