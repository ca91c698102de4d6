// The activity log against the one table of node operations: every operation that changes
// something names its event (or says its service records it), and every such operation the proxy
// offers, called for real through the panel against a real node, leaves exactly that row — with
// the properties its rule keeps and nothing else. A new changing operation without an example here
// fails the last test, so it cannot land unrecorded.
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { NODE_OPERATIONS, PROXIED_OPERATIONS, type NodeOperation, type NodeOperationName } from "../core/contract";
import { EVENTS, type EventName } from "../core/activity";
import { panelForAll, type PanelWithNode } from "./helpers/panel-node";
import { minecraftStandIn } from "./helpers/minecraft-standin";
import { eventually } from "./helpers/node";

let ctx: PanelWithNode;
let id: string;
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  let folder: string;
  ({ id, folder } = await minecraftStandIn(ctx, "activity"));
  // A stopped server names a player from its usercache (he joined once).
  writeFileSync(join(folder, "usercache.json"), JSON.stringify([{ name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7", expiresOn: "2027-01-01 00:00:00 +0000" }]));
  await eventually(async () => !((await (await ctx.node.call("GET", `/daemon/server/${id}/status`)).json()) as { installing: boolean }).installing, 10000, "the install to end");
});

const ORIGIN = { origin: "http://localhost" };
const proxy = (method: string, rest: string, body?: unknown) =>
  ctx.panel.request(`/proxy/daemon/server/${id}${rest}`, {
    token: ctx.admin.token,
    method,
    headers: { ...ORIGIN, ...(typeof body === "string" ? { "content-type": "text/plain" } : body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const upload = (rest: string, text: string) => {
  const form = new FormData();
  form.append("file", new Blob([text]), "upload.txt");
  return ctx.panel.request(`/proxy/daemon/server/${id}${rest}`, { token: ctx.admin.token, method: "PUT", headers: ORIGIN, body: form });
};
const state: { taskId?: string; backup?: string } = {};

/** One real call per changing proxied operation, in an order where each finds what it needs. */
const EXAMPLES: [NodeOperationName, () => Promise<Response>, Record<string, unknown>?][] = [
  ["putFile", () => upload("/file/a.txt", "hello"), { path: "a.txt" }],
  ["file", () => proxy("GET", "/file/a.txt"), { path: "a.txt" }],
  ["copy", () => proxy("POST", "/copy", { from: "a.txt", to: "b.txt" }), { from: "a.txt", to: "b.txt" }],
  ["move", () => proxy("POST", "/move", { from: "b.txt", to: "c.txt" }), { from: "b.txt", to: "c.txt" }],
  ["mode", () => proxy("POST", "/mode", { path: "c.txt", mode: "600" }), { path: "c.txt", mode: "600" }],
  ["archive", () => proxy("POST", "/archive/pack.zip", ["c.txt"]), { path: "pack.zip", paths: ["c.txt"] }],
  ["extract", () => proxy("GET", "/extract/pack.zip?destination=."), { path: "pack.zip", destination: "." }],
  ["deleteFile", () => proxy("DELETE", "/file/c.txt"), { path: "c.txt" }],
  ["setData", async () => proxy("POST", "/data", { data: (await (await proxy("GET", "/data")).json()).data }), {}],
  ["replaceDefinition", async () => proxy("POST", "", await (await proxy("GET", "")).json()), {}],
  ["reload", () => proxy("POST", "/reload"), {}],
  ["createTask", async () => {
    const res = await proxy("POST", "/tasks", { name: "say hi", cronSchedule: null, operations: [{ type: "console", command: "list" }] });
    state.taskId = (await res.clone().json()).id;
    return res;
  }, { name: "say hi" }],
  ["replaceTask", () => proxy("PUT", `/tasks/${state.taskId}`, { name: "say hello", cronSchedule: null, operations: [] }), { name: "say hello" }],
  ["runTask", () => proxy("POST", `/tasks/${state.taskId}/run`), {}],
  ["deleteTask", () => proxy("DELETE", `/tasks/${state.taskId}`), {}],
  ["addPlayer", () => proxy("POST", "/players/whitelist", { name: "Steve" }), { list: "whitelist", name: "Steve" }],
  ["removePlayer", () => proxy("DELETE", "/players/whitelist", { name: "Steve" }), { list: "whitelist", name: "Steve" }],
  ["setWhitelist", () => proxy("POST", "/players/whitelist/enabled", { enabled: true }), { action: "whitelist-on" }],
  ["setBackupIgnore", () => proxy("POST", "/backup-settings/ignore", { ignore: "logs/\n" }), { setting: "ignore" }],
  ["setBackupPolicy", async () => proxy("POST", "/backup-settings/policy", (await (await proxy("GET", "/backup-settings")).json()).policy), { setting: "policy" }],
  ["createBackup", async () => {
    const res = await proxy("POST", "/backups?wait=true", { note: "before the test" });
    state.backup = (await res.clone().json()).shortId;
    return res;
  }, { note: "before the test" }],
  ["lockBackup", () => proxy("POST", `/backups/${state.backup}/lock`, { locked: false }), { locked: false }],
  ["adoptBackup", () => proxy("POST", `/backups/${state.backup}/adopt`), {}],
  ["downloadBackup", async () => {
    const res = await proxy("GET", `/backups/${state.backup}/download?format=zip`);
    await res.clone().arrayBuffer();
    return res;
  }, { format: "zip" }],
  ["restoreBackup", () => proxy("POST", `/backups/${state.backup}/restore?wait=true`, { path: "a.txt" }), { path: "a.txt" }],
  ["deleteBackup", () => proxy("DELETE", `/backups/${state.backup}`), {}],
  ["install", () => proxy("POST", "/install?wait=true"), {}],
  ["start", () => proxy("POST", "/start?wait=true"), {}],
  ["sendCommand", () => proxy("POST", "/console", "list"), { command: "list" }],
  ["kickPlayer", () => proxy("POST", "/players/Steve/kick", { reason: "bye" }), { name: "Steve" }],
  ["restart", () => proxy("POST", "/restart?wait=true"), {}],
  ["stop", () => proxy("POST", "/stop?wait=true"), {}],
  ["kill", () => proxy("POST", "/kill?wait=true"), {}],
];

const changes = (op: NodeOperation) => op.method !== "GET" || op.proxy?.changesState === true;
const OPERATIONS: Record<string, NodeOperation> = NODE_OPERATIONS;

test("every operation that changes something names its event, or null where its service records it", () => {
  const silent = Object.entries(OPERATIONS).filter(([, op]) => changes(op) && !("activity" in op)).map(([name]) => name);
  expect(silent).toEqual([]);
  for (const op of Object.values(OPERATIONS)) if ("activity" in op && op.activity) expect(Object.keys(EVENTS)).toContain(op.activity);
});

describe("each changing proxied operation, called through the panel, leaves its row", () => {
  for (const [name, call, properties] of EXAMPLES) {
    test(name, async () => {
      const event: EventName = OPERATIONS[name]!.activity!;
      const before = (await rows(event)).length;
      const res = await call();
      expect(res.status, `${name}: ${await res.clone().text()}`).toBeLessThan(300);
      const added = (await rows(event)).slice(before);
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ serverId: id, actorType: "user", actorId: String(ctx.admin.userId) });
      const kept = JSON.parse(added[0]!.properties);
      expect(kept).toMatchObject(properties ?? {});
      // Only what the rule names: never a variable's value, a file's bytes or a task's steps.
      for (const key of Object.keys(kept)) expect((EVENTS[event].properties as readonly string[]).includes(key)).toBe(true);
    }, 60_000);
  }

  test("a variable change names the variables, never their values", async () => {
    const row = (await rows("server.variables.changed")).at(-1)!;
    const kept = JSON.parse(row.properties) as { names: string[] };
    expect(kept.names.length).toBeGreaterThan(0);
    expect(row.properties).not.toContain("value");
  });

  test("a refused call records nothing", async () => {
    const before = (await rows("server.file.rename")).length;
    expect((await proxy("POST", "/move", { from: "no/such/file", to: "x" })).status).toBeGreaterThanOrEqual(400);
    expect(await rows("server.file.rename")).toHaveLength(before);
  });

  test("every changing operation the proxy offers has an example above", () => {
    const covered = new Set(EXAMPLES.map(([name]) => name));
    const missing = PROXIED_OPERATIONS.filter((op) => changes(op) && op.activity).map((op) => op.name).filter((name) => !covered.has(name));
    expect(missing).toEqual([]);
  });
});

async function rows(event: string) {
  return await ctx.panel.db.select().from(schema.activity).where(eq(schema.activity.event, event)).orderBy(schema.activity.id).all();
}
