// The daemon's console lines carry a message key and values (core/live/daemon-message) so each
// reader sees them in their language. A server's process writes to the same console and can print
// the same bytes. The attacks: a forged sequence naming a key outside daemon./errors., values
// carrying HTML or script, values of the wrong shape, nesting meant to exhaust the renderer, a
// sequence cut short, and a locale name that is a path. Each renders as harmless escaped text.
// And from a real server process: printing the sequence whole, split across writes and pipes,
// behind NULs or a run of ESCs, must not earn its line the DAEMON chip; only the node's own lines
// wear it, also right after the process left a line unfinished.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DAEMON_MARKER } from "../../core/live";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import { renderLine } from "../../islands/lib/console-lines";
import { translatorFor } from "../../locales/tables";
import { eventually, startTestNode, echoTemplate, type TestNode } from "../helpers/node";

const german = translatorFor("de_DE");
const forged = (payload: string, text = "words") => `${DAEMON_MARKER}${text}\x1b]7701;${payload}\x07`;
const body = (html: string) => html.replace(/^<div class="console-line">(<span class="console-chip">[^<]*<\/span>)?/, "").replace(/<\/div>$/, "").replace(/^\[kiln\] /, "");
const chipped = (html: string) => html.includes('class="console-chip"');

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

  test("a line with the marker but no sound message wears no chip", () => {
    for (const line of [forged('{"key":"nav.account"}'), `${DAEMON_MARKER}words`, `${DAEMON_MARKER}words\x1b]7701;{"key":"daemon.ready"`]) expect(chipped(renderLine(line, german))).toBe(false);
    // Values stay escaped even in a line the node wrote.
    const line = forged(JSON.stringify({ key: "daemon.exited", values: { code: "<b>0</b>" } }));
    expect(decodeDaemonLine(line).message).toEqual({ key: "daemon.exited", values: { code: "<b>0</b>" } });
    expect(body(renderLine(line, german))).toContain("&lt;b&gt;0&lt;/b&gt;");
  });

  test("a megabyte payload is said once, as its text", () => {
    const big = JSON.stringify({ key: "daemon.text", values: { text: "x".repeat(1_000_000) } });
    expect(body(renderLine(forged(big), german))).toBe("x".repeat(1_000_000));
  });
});

// Each line of the script is one way to forge the node's mark; the process ends with a line left open.
const FORGER = String.raw`p() { printf "$@"; }
p '[kiln] the server exited with code 0\033]7701;{"key":"daemon.exited","values":{"code":"0"}}\007\n'
p '[kiln] split\033]77'; sleep 0.3; p '01;{"key":"daemon.ready"}\007\n'
p '[kiln] nul\033]77\00001;{"key":"daemon.ready"}\007\n'
p '[kiln] escapes\033\033\033]7701;{"key":"daemon.ready"}\007\n'
p '[kiln] escape last\033'; sleep 0.3; p ']7701;{"key":"daemon.ready"}\007\n'
p '[kiln] pipes' ; p '\033]77' >&2; sleep 0.3; p '01;{"key":"daemon.ready"}\007\n'
p 'a line left open'
`;

describe("a server's process against the DAEMON chip", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node.stop());

  test("whatever it prints, only the node's own lines wear the chip, also right after an open line", async () => {
    await node.json("PUT", "/daemon/server/forger", { ...echoTemplate({ command: "sh forge.sh" }), install: [] });
    const form = new FormData();
    form.append("file", new Blob([FORGER]), "forge.sh");
    const url = `${node.node.url}/daemon/server/forger/file/forge.sh`;
    expect((await node.fetch(url, { method: "PUT", body: form })).status).toBe(200);
    await node.json("POST", "/daemon/server/forger/start?wait=true");
    const text = async () => ((await node.json("GET", "/daemon/server/forger/console")) as { logs: string[] }).logs.join("");
    await eventually(async () => (await text()).includes("the server exited with code 0\x1b]7701;"), 10_000, "the process to end");
    const english = translatorFor("en_US");
    const lines = (await text()).split("\n").filter(Boolean);
    const rendered = lines.map((line) => ({ line, html: renderLine(line, english), chip: chipped(renderLine(line, english)) }));
    const chips = rendered.filter((r) => r.chip).map((r) => decodeDaemonLine(r.line).message?.key);
    // The node's own: starting, and the exit after the open line.
    expect(chips).toEqual(["daemon.starting", "daemon.exited"]);
    for (const forgedText of ["split", "nul", "escapes", "escape last", "pipes"]) {
      const line = rendered.find((r) => r.line.includes(`[kiln] ${forgedText}`));
      expect({ forgedText, chip: line?.chip }).toEqual({ forgedText, chip: false });
    }
    // The process's own line and the node's exit line are two lines; the exit is on its own.
    expect(lines.some((line) => line === "a line left open")).toBe(true);
    expect(lines.at(-1)).toStartWith(`${DAEMON_MARKER}the server exited with code 0\x1b]7701;`);
    // No NUL was kept, and the first forged line is only text.
    expect(await text()).not.toContain("\0");
    expect(rendered[1]?.chip).toBe(false);
  }, 20_000);
});
