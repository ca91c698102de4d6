// Attack: server variables as a way to run commands on the node or add lines to a server's files.
// A user holding editServerData (and the file and power flags
// a server's owner has) writes hostile values through POST …/data, the settings form, creation
// and tasks: each is refused with a catalogue error and changes nothing. Values that are
// legitimately strings with shell syntax are accepted, and starting the real Minecraft vanilla
// template (installed from local fixture sites) runs no injected command and adds no line to
// server.properties; the node refuses what slips past the panel too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseProperties } from "dot-properties";
import { SHIPPED_TEMPLATES } from "../../templates";
import { putTemplate } from "../../server/services/templates";
import { SCOPES } from "../../core/scopes";
import { loginAs } from "../helpers/app";
import { eventually, startTestNode, type TestNode } from "../helpers/node";
import { formInit, jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { startFixtureSources, type FixtureSources } from "../helpers/step-sources";
import { schema } from "../../db";

let fixtures: FixtureSources;
let node: TestNode;
let ctx: PanelWithNode;
let id = "";
let user: { token: string; email: string };
const folder = () => node.folder(id);
const definition = async () => node.json("GET", `/daemon/server/${id}`);
/** Names of files an injected `touch` would have made anywhere near the server. */
const MARKERS = ["pwned", "pwned2", "pwned3", "pwned4", "x"];
const markersLeft = () => MARKERS.filter((m) => existsSync(join(folder(), m)) || existsSync(join(process.cwd(), m)));

beforeAll(async () => {
  fixtures = startFixtureSources();
  node = await startTestNode({ sources: fixtures.sources });
  ctx = await panelWithNode(node);
  for (const name of ["minecraft-vanilla", "nodejs-app"]) await putTemplate(ctx.panel.db, name, SHIPPED_TEMPLATES.find((t) => t.name === name)!);
  const created = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "vanilla", node: ctx.nodeId, template: "minecraft-vanilla", variables: { eula: true } }) });
  expect(created.status).toBe(201);
  id = (await created.json()).id;
  // Creation installs straight away: Java and server.jar from the fixture sites.
  await eventually(async () => existsSync(join(folder(), "server.jar")) && !(await node.json("GET", `/daemon/server/${id}/status`)).installing, 30_000, "install");
  user = await ctx.userWith(id, { editServerData: true, putServerFiles: true, viewServerFiles: true, startServer: true, stopServer: true, viewServerConsole: true });
}, 60_000);
afterAll(async () => {
  await node.call("POST", `/daemon/server/${id}/kill`);
  await node.stop();
  fixtures.stop();
});

async function expectRefused(response: Response, code: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
}

/** A JSON body written as text, so keys such as "__proto__" are sent as they are (an object literal would eat them). */
const rawJson = (method: string, text: string) => ({ method, headers: { "content-type": "application/json" }, body: text });

const HOSTILE: Array<[name: string, value: unknown, code: string]> = [
  ["memory", "$(touch pwned)", "ErrFieldNotInteger"],
  ["memory", ";touch pwned", "ErrFieldNotInteger"],
  ["memory", "`touch pwned`", "ErrFieldNotInteger"],
  ["memory", "1024 -XX:OnOutOfMemoryError=touch", "ErrFieldNotInteger"],
  ["memory", 1.5, "ErrFieldNotInteger"],
  ["memory", true, "ErrFieldNotInteger"],
  ["port", "25565\nenable-rcon=true", "ErrFieldNotInteger"],
  ["eula", "yes", "ErrFieldNotBoolean"],
  ["eula", 2, "ErrFieldNotBoolean"],
  ["motd", "hi\nenable-rcon=true", "ErrFieldHasControlCharacters"],
  ["motd", "hi\renable-rcon=true", "ErrFieldHasControlCharacters"],
  ["motd", "hi\u0000there", "ErrFieldHasControlCharacters"],
  ["motd", "hi\u2028enable-rcon=true", "ErrFieldHasControlCharacters"],
  ["motd", "m".repeat(100_000), "ErrFieldTooLarge"],
  // An object is a variable sent whole (PufferPanel 2, puffMob): a key that is no variable field is named.
  ["motd", { toString: "x" }, "ErrUnknownField"],
  ["motd", { value: { toString: "x" } }, "ErrInvalidJson"],
  ["nope", "x", "ErrNotFound"],
];

describe("POST …/data", () => {
  test("hostile values and wrong types are refused with a catalogue error, and nothing changes", async () => {
    const before = await definition();
    for (const [name, value, code] of HOSTILE) {
      await expectRefused(await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { motd: "changed", [name]: value } }) }), code);
    }
    expect(await definition()).toEqual(before);
  });

  test("__proto__, constructor and unknown names are errors, not dropped, and reach no prototype", async () => {
    const before = await definition();
    for (const name of ["__proto__", "constructor", "toString", "nope"]) {
      for (const value of ['"x"', '{"value":"x","userEdit":true}']) {
        const body = `{"data":{"motd":"changed","${name}":${value}}}`;
        await expectRefused(await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...rawJson("POST", body) }), "ErrNotFound");
      }
    }
    expect(await definition()).toEqual(before);
    // The node runs in this process: its Object.prototype would show a write.
    expect(({} as Record<string, unknown>).value).toBeUndefined();
  });

  test("the node refuses the same when called directly (defence in depth)", async () => {
    const before = await definition();
    await expectRefused(await node.call("POST", `/daemon/server/${id}/data`, { data: { motd: "a\nenable-rcon=true" } }), "ErrFieldHasControlCharacters");
    await expectRefused(await node.call("POST", `/daemon/server/${id}/data`, { data: { memory: "$(touch pwned)" } }), "ErrFieldNotInteger");
    const proto = await node.fetch(`${node.node.url}/daemon/server/${id}/data`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":{"__proto__":"x"}}' });
    await expectRefused(proto, "ErrNotFound");
    // A whole definition with a bad value, or a reserved key, is refused too.
    const bad = structuredClone(before);
    bad.data.motd.value = "a\nenable-rcon=true";
    await expectRefused(await node.call("POST", `/daemon/server/${id}`, bad), "ErrFieldHasControlCharacters");
    const reserved = JSON.stringify(before).replace('"data":{', '"data":{"__proto__":{"value":"x","userEdit":false},');
    await expectRefused(await node.fetch(`${node.node.url}/daemon/server/${id}`, { method: "POST", headers: { "content-type": "application/json" }, body: reserved }), "ErrInvalidJson");
    expect(await definition()).toEqual(before);
  });

  test("the Node.js template's install command is one of its options, not a command of the user's", async () => {
    const created = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "node app", node: ctx.nodeId, template: "nodejs-app" }) });
    const appId = (await created.json()).id as string;
    const owner = await ctx.userWith(appId, { editServerData: true, installServer: true });
    await expectRefused(await ctx.panel.request(`/proxy/daemon/server/${appId}/data`, { token: owner.token, ...jsonInit("POST", { data: { installCommand: "touch pwned" } }) }), "ErrFieldNotEqual");
    const accepted = await ctx.panel.request(`/proxy/daemon/server/${appId}/data`, { token: owner.token, ...jsonInit("POST", { data: { installCommand: "npm ci --omit=dev" } }) });
    expect(accepted.status).toBe(204);
  });
});

describe("the settings form", () => {
  test("hostile values, unknown names and __proto__ are refused, and nothing changes", async () => {
    const before = await definition();
    const cases: Array<Record<string, string>> = [
      { "var.memory": "$(touch pwned)" },
      { "var.motd": "hi\nenable-rcon=true" },
      { "var.motd": "hi\r\nenable-rcon=true" },
      { "var.eula": "maybe" },
      { "var.nope": "x" },
      { "var.__proto__": "x" },
      { "var.constructor": "x" },
    ];
    for (const fields of cases) {
      const res = await ctx.panel.request(`/server/${id}/settings`, { token: user.token, ...formInit({ "var.motd": "changed", ...fields }) });
      expect(res.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(fields)).toBeLessThan(500);
    }
    expect(await definition()).toEqual(before);
  });
});

describe("creation", () => {
  test("a creator's hostile values are refused and no server is made", async () => {
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    const rows = async () => (await ctx.panel.db.select().from(schema.servers).all()).length;
    const onNode = () => readdirSync(join(node.config.dataDir, "servers")).filter((f) => f.endsWith(".json")).length;
    const [rowsBefore, nodeBefore] = [await rows(), onNode()];
    const post = (variables: string) =>
      ctx.panel.request("/api/servers", { token: creator.token, ...rawJson("POST", `{"name":"hostile","node":${ctx.nodeId},"template":"minecraft-vanilla","variables":${variables}}`) });
    await expectRefused(await post('{"memory":"$(touch pwned)"}'), "ErrFieldNotInteger");
    await expectRefused(await post('{"motd":"a\\nenable-rcon=true"}'), "ErrFieldHasControlCharacters");
    await expectRefused(await post('{"eula":"sure"}'), "ErrFieldNotBoolean");
    await expectRefused(await post('{"__proto__":"x"}'), "ErrNotFound");
    await expectRefused(await post('{"constructor":"x"}'), "ErrNotFound");
    await expectRefused(await post('{"nope":"x"}'), "ErrNotFound");
    // The no-script form says the same.
    const form = await ctx.panel.request("/addserver", { token: creator.token, ...formInit({ name: "hostile", node: String(ctx.nodeId), template: "minecraft-vanilla", environment: "standard", user: creator.email, "var.motd": "a\nenable-rcon=true" }) });
    expect(form.status).toBe(400);
    expect(await rows()).toBe(rowsBefore);
    expect(onNode()).toBe(nodeBefore);
  });
});

describe("starting and tasks with values full of shell syntax", () => {
  const motd = `$(touch pwned) \`touch pwned2\`; touch pwned3 && touch pwned4 "a b" 'c' $' $\` $& \\ %s`;

  test("the value is accepted as text, and a start runs no injected command and adds no line", async () => {
    const set = await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { motd } }) });
    expect(set.status).toBe(204);
    const start = await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token: user.token, method: "POST" });
    expect(start.status).toBe(204);
    await eventually(async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("").includes("Done"), 15_000, "minecraft started");
    // Two lines, read back by Java's rules (a backslash is written escaped) as the value given.
    const text = readFileSync(join(folder(), "server.properties"), "utf8");
    expect(text.split("\n").filter(Boolean)).toHaveLength(2);
    expect(parseProperties(text)).toEqual({ motd, "server-port": "25565" });
    expect(markersLeft()).toEqual([]);
    await ctx.panel.request(`/proxy/daemon/server/${id}/stop?wait=true`, { token: user.token, method: "POST" });
  }, 30_000);

  test("the Java application's options, split at spaces, run nothing of their own", async () => {
    await putTemplate(ctx.panel.db, "java-app", SHIPPED_TEMPLATES.find((t) => t.name === "java-app")!);
    const created = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "java app", node: ctx.nodeId, template: "java-app" }) });
    const appId = (await created.json()).id as string;
    const appFolder = node.folder(appId);
    await eventually(async () => !(await node.json("GET", `/daemon/server/${appId}/status`)).installing && existsSync(join(node.config.dataDir, "binaries", "bin", "java17")), 30_000, "java installed");
    const owner = await ctx.userWith(appId, { editServerData: true, startServer: true, stopServer: true });
    // The "jar" (the fixture Java runs it as a script) prints its arguments.
    const jar = '#!/bin/sh\nprintf "app args:"; for a in "$@"; do printf " [%s]" "$a"; done; echo\n';
    writeFileSync(join(appFolder, "app.jar"), jar, { mode: 0o755 });
    // The JVM's options are the administrator's (one can load an agent or run a command); the program's arguments the user's.
    const jvmArgs = "-Da=$(touch${IFS}pwned) -Db=`touch${IFS}pwned2`";
    const args = ";touch pwned3 && touch pwned4 '|' $HOME";
    expect((await ctx.panel.request(`/proxy/daemon/server/${appId}/data`, { token: owner.token, ...jsonInit("POST", { data: { jvmArgs } }) })).status).toBe(403);
    expect((await ctx.panel.request(`/proxy/daemon/server/${appId}/data`, { token: ctx.admin.token, ...jsonInit("POST", { data: { jvmArgs } }) })).status).toBe(204);
    expect((await ctx.panel.request(`/proxy/daemon/server/${appId}/data`, { token: owner.token, ...jsonInit("POST", { data: { args } }) })).status).toBe(204);
    expect((await ctx.panel.request(`/proxy/daemon/server/${appId}/start?wait=true`, { token: owner.token, method: "POST" })).status).toBe(204);
    await eventually(async () => ((await node.json("GET", `/daemon/server/${appId}/console`)).logs as string[]).join("").includes("app args:"), 15_000, "the app ran");
    const output = ((await node.json("GET", `/daemon/server/${appId}/console`)).logs as string[]).join("");
    expect(output).toContain("fixture java 17.0.1: -Xmx1024M -Da=$(touch${IFS}pwned) -Db=`touch${IFS}pwned2` -jar app.jar");
    expect(output).toContain("app args: [;touch] [pwned3] [&&] [touch] [pwned4] ['|'] [$HOME]");
    expect(MARKERS.filter((m) => existsSync(join(appFolder, m)))).toEqual([]);
    expect(markersLeft()).toEqual([]);
  }, 45_000);

  test("a task's file steps write the value as text on its one line", async () => {
    const task = {
      name: "values",
      cronSchedule: null,
      operations: [
        { type: "writefile", target: "motd.txt", text: "${motd}" },
        { type: "alterfile", file: "server.properties", regex: true, search: "(^|\\n)motd=[^\\r\\n]*", replace: "$1motd=[${motd}]" },
      ],
    };
    const saved = await ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token: user.token, ...jsonInit("POST", task) });
    expect(saved.status).toBe(201);
    const taskId = (await saved.json()).id;
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/tasks/${taskId}/run`, { token: user.token, method: "POST" })).status).toBe(202);
    await eventually(async () => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("").includes(`task "values": finished`), 10_000, "task run");
    expect(readFileSync(join(folder(), "motd.txt"), "utf8")).toBe(motd);
    const lines = readFileSync(join(folder(), "server.properties"), "utf8").split("\n").filter(Boolean).sort();
    expect(lines).toEqual([`motd=[${motd}]`, "server-port=25565"]);
    expect(markersLeft()).toEqual([]);
  });
});
