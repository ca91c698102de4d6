// Attack: a server user who may only edit the server's variables, start it and read its console
// (no file rights) makes a shipped template's interpreter run code of their choosing through a
// value that is not a `-c` word: python-app runs `python3 -u ${main}`, nodejs-app `node ${main}`.
// The value tries program text in other spellings (`-cCODE`, `--eval=CODE`), an option that reads
// the program from the console (`-i`, `-`), a script of the system's that does (code.py), and
// an empty script. The shipped templates refuse such a value when it is set (their pattern asks
// for a path in the folder); a copy of theirs without the pattern, as an administrator may write,
// is refused at the start with ErrValueIsCode, by the node, whatever the door. Nothing runs; a
// script in the server's folder still does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { panelWithNode, userWithFlags, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { startTestNode, eventually, type TestNode } from "../helpers/node";
import { putTemplate } from "../../server/services/templates";

let node: TestNode;
let ctx: PanelWithNode;
beforeAll(async () => {
  node = await startTestNode();
  ctx = await panelWithNode(node);
  for (const name of ["python-app", "nodejs-app"]) {
    const shipped = JSON.parse(readFileSync(new URL(`../../templates/${name}.json`, import.meta.url), "utf8"));
    await putTemplate(ctx.panel.db, name, shipped);
    delete shipped.data.main.rules;
    await putTemplate(ctx.panel.db, `${name}-unchecked`, { ...shipped, name: `${name}-unchecked` });
  }
});
afterAll(() => node?.stop());

async function serverOf(template: string) {
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: `v-${template}`, node: ctx.nodeId, template, environment: { type: "standard" } }) });
  expect(res.status).toBe(201);
  const id = (await res.json()).id as string;
  // What the user may not read: the file API refuses it.
  writeFileSync(node.folder(id, "private.txt"), "TOP-SECRET-CONTENT\n");
  const user = await userWithFlags(ctx, id, ["editServerData", "startServer", "viewServerConsole"]);
  expect((await ctx.panel.request(`/proxy/daemon/server/${id}/file/private.txt`, { token: user.token })).status).toBe(403);
  const call = (path: string, init: RequestInit = {}) => ctx.panel.request(`/proxy/daemon/server/${id}${path}`, { token: user.token, ...init });
  const consoleText = async () => ((await (await call("/console?time=0")).json()).logs as string[]).join("");
  return { id, call, consoleText };
}

async function refusedWith(template: string, values: string[]) {
  const shipped = await serverOf(template);
  const unchecked = await serverOf(`${template}-unchecked`);
  for (const main of values) {
    const set = await shipped.call("/data", jsonInit("POST", { data: { main } }));
    expect([main, set.status, (await set.json()).error?.code]).toEqual([main, 400, "ErrFieldPatternMismatch"]);
    expect([main, (await unchecked.call("/data", jsonInit("POST", { data: { main } }))).status]).toEqual([main, 204]);
    const start = await unchecked.call("/start?wait=true", { method: "POST" });
    expect([main, start.status, (await start.json()).error?.code]).toEqual([main, 400, "ErrValueIsCode"]);
  }
  await Bun.sleep(300);
  for (const server of [shipped, unchecked]) expect(await server.consoleText()).not.toContain("TOP-SECRET-CONTENT");
  return shipped;
}

test("python-app: the value is never python's option, a script outside the folder, or no script", async () => {
  const code = "import os;print(open('private.txt').read())";
  const server = await refusedWith("python-app", [`-c${code}`, `-Ic ${code}`, "-i", "-", "-m code", "/usr/lib/python3/code.py", "../../../usr/lib/python3/code.py"]);
  // The server's own script in its folder runs, as before.
  writeFileSync(node.folder(server.id, "bot.py"), "print('bot-ran')\n");
  expect((await server.call("/data", jsonInit("POST", { data: { main: "bot.py" } }))).status).toBe(204);
  expect((await server.call("/start?wait=true", { method: "POST" })).status).toBe(204);
  await eventually(async () => (await server.consoleText()).includes("bot-ran"), 15_000, "the script to run");
}, 60_000);

test("nodejs-app: the value is never node's option, in any spelling", async () => {
  const code = "console.log(require('fs').readFileSync('private.txt','utf8'))";
  await refusedWith("nodejs-app", [`--eval=${code}`, `-pe ${code}`, "-i", "--import=data:text/javascript,console.log(1)", "--inspect=0.0.0.0:9229 index.js"]);
}, 60_000);
