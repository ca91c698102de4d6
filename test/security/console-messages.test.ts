// The daemon's console lines carry a message key and values (core/live/daemon-message) so each
// reader sees them in their language. A server's process writes to the same console and can print
// the same bytes. The attacks: a forged sequence naming a key outside daemon./errors., values
// carrying HTML or script, values of the wrong shape, nesting meant to exhaust the renderer, a
// sequence cut short, and a locale name that is a path. Each renders as harmless escaped text.
import { describe, expect, test } from "bun:test";
import { DAEMON_MARKER } from "../../core/live";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import { renderLine } from "../../islands/lib/console-lines";
import { translatorFor } from "../../server/i18n";

const german = translatorFor("de_DE");
const forged = (payload: string, text = "words") => `${DAEMON_MARKER}${text}\x1b]7701;${payload}\x07`;
const body = (html: string) => html.replace(/^<div class="console-line">(<span class="console-chip">[^<]*<\/span>)?/, "").replace(/<\/div>$/, "");

describe("forged daemon lines", () => {
  test("a key outside daemon. and errors. is not looked up: the line's own text shows", () => {
    for (const key of ["nav.account", "auth.login.title", "__proto__", "constructor", "daemon", "errors.", "daemon.ready/../../x"]) {
      expect(body(renderLine(forged(JSON.stringify({ key })), german))).toBe("words");
    }
  });

  test("HTML and script in values or in the text are escaped, never markup", () => {
    const evil = `<img src=x onerror=alert(1)><script>alert(2)</script>"'`;
    const html = renderLine(forged(JSON.stringify({ key: "daemon.step.downloading", values: { url: evil } }), evil), german);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  test("values of the wrong shape, nesting past three levels and cut-short sequences fall back to the text", () => {
    let deep: object = { key: "daemon.ready" };
    for (let i = 0; i < 50; i++) deep = { key: "daemon.text", values: { text: deep } };
    for (const payload of [
      JSON.stringify(deep),
      '{"key":"daemon.ready","values":{"a":true}}',
      '{"key":"daemon.ready","values":{"a":null}}',
      '{"key":"daemon.ready","values":{"a":[1,2]}}',
      '{"key":"daemon.ready","values":"x"}',
      '{"key":7}',
      "[]",
      "",
    ]) {
      expect({ payload, shown: body(renderLine(forged(payload), german)) }).toEqual({ payload, shown: "words" });
    }
    // No terminator: the rest of the line is dropped, not shown as raw sequence text.
    expect(body(renderLine(`${DAEMON_MARKER}words\x1b]7701;{"key":"daemon.ready"`, german))).toBe("words");
  });

  test("a sound message from a process is still only text: the reader sees a daemon line, escaped", () => {
    // The same as printing "[kiln] " by hand, which a process could always do; nothing more.
    const line = forged(JSON.stringify({ key: "daemon.exited", values: { code: "<b>0</b>" } }));
    expect(decodeDaemonLine(line).message).toEqual({ key: "daemon.exited", values: { code: "<b>0</b>" } });
    expect(body(renderLine(line, german))).toContain("&lt;b&gt;0&lt;/b&gt;");
  });

  test("a megabyte payload is said once, as its text", () => {
    const big = JSON.stringify({ key: "daemon.text", values: { text: "x".repeat(1_000_000) } });
    expect(body(renderLine(forged(big), german))).toBe("x".repeat(1_000_000));
  });
});
