// The last places where PufferPanel's own clients (its early-2023 web client, puffMob) read Kiln
// otherwise than PufferPanel: each as the client does it, through the panel.
// - PUT /api/users/{id}/perms with the whole user object its form edits: the account's fields,
//   Kiln's `scopes` list from the GET it started from, and the flat flags it changed;
// - GET …/console's `epoch` and `?time=` in Unix seconds, polled as the client polls: no line
//   repeated, none missed;
// - POST …/kill?wait=true answers once the process is gone, as stop?wait=true does;
// - server list entries carry `type`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { loginAs } from "../helpers/app";
import { eventually } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { putTemplate } from "../../server/services/templates";
import { scopesOf } from "../../server/services/users";

let ctx: PanelWithNode;
let id = "";
const proxy = (path: string, init: RequestInit = {}) => ctx.panel.request(`/proxy/daemon/server/${id}${path}`, { token: ctx.admin.token, ...init });

beforeAll(async () => {
  ctx = await panelWithNode();
  // A game that echoes what it is told, and whose stop runs a post step that takes a second.
  await putTemplate(ctx.panel.db, "slow-post", {
    display: "Echo with a slow post step",
    type: "minecraft-java",
    run: {
      command: "sh -c 'while read l; do echo \"said $l\"; done'",
      stop: "",
      post: [{ type: "command", commands: ["sh -c 'sleep 1; echo done > post-ran.txt'"] }],
    },
    data: { port: { display: "Port", type: "integer", value: 25565, required: true, userEdit: false } },
    environment: { type: "standard" },
  });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "differences", node: ctx.nodeId, template: "slow-post", environment: { type: "standard" } }) });
  expect(res.status).toBe(201);
  id = (await res.json()).id;
  await eventually(async () => !(await (await proxy("/status")).json()).installing, 20_000, "the install");
}, 60_000);
afterAll(async () => {
  await proxy("/kill", { method: "POST" }).catch(() => undefined);
  await ctx.node.stop();
});

describe("PufferPanel's clients against Kiln", () => {
  test("server list entries carry the server's type", async () => {
    const list = await (await ctx.panel.request("/api/servers?page=1&limit=10", { token: ctx.admin.token })).json();
    expect(list.servers.find((s: { id: string }) => s.id === id)).toMatchObject({ type: "minecraft-java", name: "differences" });
  });

  test("perms: the whole user object the form edits (account fields, scopes from the GET, flags) is taken; a flag sent decides its scope", async () => {
    const target = await loginAs(ctx.panel.db, [SCOPES.serversView, SCOPES.nodesView]);
    const get = async (path: string) => (await ctx.panel.request(path, { token: ctx.admin.token })).json();
    // The client's getUser: the account, then its permissions, merged into one object.
    const user = { ...(await get(`/api/users/${target.userId}`)), ...(await get(`/api/users/${target.userId}/perms`)) };
    expect([Array.isArray(user.scopes), user.viewServers, user.viewNodes, user.editTemplates]).toEqual([true, true, true, false]);
    const put = await ctx.panel.request(`/api/users/${target.userId}/perms`, { token: ctx.admin.token, ...jsonInit("PUT", { ...user, editTemplates: true, viewTemplates: true, viewNodes: false }) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ editTemplates: true, viewTemplates: true, viewNodes: false, viewServers: true });
    expect(await scopesOf(ctx.panel.db, target.userId)).toEqual([SCOPES.serversView, SCOPES.templatesEdit, SCOPES.templatesView].sort());
    // Sent alone with a list, a flag the body leaves out follows the list.
    const again = await ctx.panel.request(`/api/users/${target.userId}/perms`, { token: ctx.admin.token, ...jsonInit("PUT", { scopes: [SCOPES.serversView, SCOPES.nodesView], editTemplates: true }) });
    expect(await scopesOf(ctx.panel.db, target.userId)).toEqual([SCOPES.nodesView, SCOPES.serversView, SCOPES.templatesEdit].sort());
    expect(again.status).toBe(200);
  });

  test("console: epoch and ?time= are Unix seconds; polling with the epoch gives every line once", async () => {
    expect((await proxy("/start?wait=true", { method: "POST" })).status).toBe(204);
    const first = await (await proxy("/console?time=0")).json();
    const now = Date.now() / 1000;
    expect(Number.isInteger(first.epoch)).toBe(true);
    expect(Math.abs(first.epoch - now)).toBeLessThan(5);
    // Kiln's own clients continue from the milliseconds beside it.
    expect(Math.abs(first.epochMs / 1000 - now)).toBeLessThan(5);
    const seen: string[] = first.logs;
    let epoch = first.epoch as number;
    // The client's loop: a command now and then, a poll with the last epoch, lines appended.
    for (let i = 0; i < 6; i++) {
      expect((await proxy("/console", { method: "POST", body: `line-${i}` })).status).toBe(204);
      await Bun.sleep(400);
      const answer = await (await proxy(`/console?time=${epoch}`)).json();
      expect(answer.epoch).toBeGreaterThanOrEqual(epoch);
      seen.push(...answer.logs);
      epoch = answer.epoch;
    }
    await Bun.sleep(1100);
    seen.push(...(await (await proxy(`/console?time=${epoch}`)).json()).logs);
    const said = seen.join("").split("\n").filter((line) => line.startsWith("said "));
    expect(said).toEqual([0, 1, 2, 3, 4, 5].map((i) => `said line-${i}`));
  }, 30_000);

  test("kill?wait=true answers once the process is gone and its post steps ran, as stop?wait=true does", async () => {
    const folder = ctx.node.folder(id);
    expect((await (await proxy("/status")).json()).running).toBe(true);
    expect((await proxy("/kill?wait=true", { method: "POST" })).status).toBe(204);
    expect((await (await proxy("/status")).json()).running).toBe(false);
    expect(existsSync(join(folder, "post-ran.txt"))).toBe(true);
  }, 30_000);
});
