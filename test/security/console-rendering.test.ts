// What one server prints cannot change how another server's console renders. A user holding
// putServerFiles and startServer on server A makes it print a hyperlink sequence it never closes;
// ansi_up keeps an unfinished sequence for the next call, and one converter renders every console
// page of the panel: B's lines vanished for whoever opened B (its administrator too) and reached
// A's page the next time it was opened. And a value inside the node's own line (a task's name)
// carries no link into the line only the node's words wear a chip on.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { renderLine } from "../../islands/lib/console-lines";
import { encodeDaemonLine, message } from "../../core/live/daemon-message";
import { makeTranslate } from "../../core/i18n/translate";
import en from "../../locales/en.json";

let ctx: PanelWithNode;
let a: string;
let b: string;
let attacker: { token: string };
let victim: { token: string };

beforeAll(async () => {
  ctx = await panelWithNode();
  a = await ctx.createServer("attacker-server", { variables: { port: 25601 } });
  b = await ctx.createServer("victim-server", { variables: { port: 25602 } });
  attacker = await ctx.userWith(a, { viewServerConsole: true, viewServerFiles: true, putServerFiles: true, startServer: true });
  victim = await ctx.userWith(b, { viewServerConsole: true, sendServerConsole: true, startServer: true });
  // The echo template prints motd.txt at start: a tab first (which flushes what ansi_up holds), then a link never closed.
  const form = new FormData();
  form.append("file", new Blob(["\tfirst line\n\x1b]8;;https://evil.example/\x07\nafter the open sequence\n"]), "motd.txt");
  expect((await ctx.panel.request(`/proxy/daemon/server/${a}/file/motd.txt`, { token: attacker.token, method: "PUT", body: form })).status).toBe(200);
  for (const [id, who] of [[a, attacker], [b, victim]] as const) expect((await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token: who.token, method: "POST" })).status).toBeLessThan(300);
  expect((await ctx.panel.request(`/proxy/daemon/server/${b}/console`, { token: victim.token, method: "POST", body: "rcon.password=HUNTER2-SECRET" })).status).toBeLessThan(300);
  const logOf = async (id: string, token: string) => JSON.stringify(await (await ctx.panel.request(`/proxy/daemon/server/${id}/console`, { token })).json());
  await eventually(async () => (await logOf(b, victim.token)).includes("HUNTER2"), 5000, "the victim's line");
  await eventually(async () => (await logOf(a, attacker.token)).includes("after the open"), 5000, "the attacker's line");
});
afterAll(async () => {
  for (const id of [a, b]) await ctx.node.call("POST", `/daemon/server/${id}/kill`);
  await ctx.node.stop();
});

/** The console as the page renders it (the islands' JSON payload, which carries the raw log, left out). */
const rendered = (html: string) => html.split('<script type="application/json"')[0]!;

test("server A's unfinished sequence neither hides B's console from its viewers nor hands B's lines to A's page", async () => {
  await ctx.page(`/server/${a}`, attacker.token);
  for (const token of [ctx.admin.token, victim.token]) expect(rendered((await ctx.page(`/server/${b}`, token)).html)).toContain("HUNTER2-SECRET");
  expect(rendered((await ctx.page(`/server/${a}`, attacker.token)).html)).not.toContain("HUNTER2-SECRET");
});

test("any line renders the same whatever came before it, and a node's line holds no link of a value's", () => {
  const t = makeTranslate(en);
  const plain = "the server's own line";
  const alone = renderLine(plain, t);
  for (const hostile of ["\x1b]8;;https://evil.example/\x07open", "\x1b[", "\x1b]8;;x", "\x1b", "\x1b]0;title", "\x1b[38;5;", "a\x1b]8;;u\x07b\x1b]8;;\x07c\x1b]8;;v\x07"]) {
    renderLine(hostile, t);
    expect({ hostile, html: renderLine(plain, t) }).toEqual({ hostile, html: alone });
  }
  // A whole link still renders as one.
  expect(renderLine("see \x1b]8;;https://example.com/\x07the docs\x1b]8;;\x07", t)).toContain('href="https://example.com/"');
  const task = encodeDaemonLine(message("daemon.task.line", { task: "nightly\x1b]8;;https://evil.example/login\x07 sign in again here\x1b]8;;\x07", line: "started" }), t);
  const html = renderLine(task, t);
  expect(html).toContain("console-chip");
  expect(html).not.toContain("<a");
});
