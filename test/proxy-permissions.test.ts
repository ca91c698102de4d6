// Server flags through the proxy and the API: a user holding exactly one flag can do exactly
// what that flag allows, and nothing else; admin passes everything.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs } from "./helpers/app";
import { startTestNode, eventually, type TestNode } from "./helpers/node";
import { panelWithNode, jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { SERVER_FLAGS, type ServerFlag } from "../core/scopes";
import type { Requirement } from "../server/services/servers";

let node: TestNode;
let ctx: PanelWithNode;
let id: string;
beforeAll(async () => {
  node = await startTestNode();
  ctx = await panelWithNode(node);
  id = await ctx.createServer("guarded");
});
afterAll(async () => {
  await node.call("POST", `/daemon/server/${id}/kill`);
  await node.stop();
});

interface Call {
  needs: Requirement;
  method: string;
  path: (id: string) => string;
  body?: string | object;
}

/** One call per row of the permission table (files and tasks are passed through to the node). */
const CALLS: Call[] = [
  { needs: "view", method: "GET", path: (i) => `/proxy/daemon/server/${i}/status` },
  { needs: "view", method: "GET", path: (i) => `/api/servers/${i}` },
  { needs: "viewServerStats", method: "GET", path: (i) => `/proxy/daemon/server/${i}/stats` },
  { needs: "viewServerConsole", method: "GET", path: (i) => `/proxy/daemon/server/${i}/console?time=0` },
  { needs: "sendServerConsole", method: "POST", path: (i) => `/proxy/daemon/server/${i}/console`, body: "hello" },
  { needs: "startServer", method: "POST", path: (i) => `/proxy/daemon/server/${i}/start?wait=true` },
  { needs: "startServer", method: "POST", path: (i) => `/proxy/daemon/server/${i}/restart?wait=false` },
  { needs: "stopServer", method: "POST", path: (i) => `/proxy/daemon/server/${i}/kill?wait=true` },
  { needs: "installServer", method: "POST", path: (i) => `/proxy/daemon/server/${i}/install?wait=true` },
  { needs: "editServerData", method: "GET", path: (i) => `/proxy/daemon/server/${i}/data` },
  { needs: "editServerData", method: "POST", path: (i) => `/proxy/daemon/server/${i}/data`, body: { data: { greeting: "hi" } } },
  { needs: "editServerData", method: "GET", path: (i) => `/proxy/daemon/server/${i}/tasks` },
  { needs: "editServerData", method: "PUT", path: (i) => `/api/servers/${i}/name/guarded-${Math.random().toString(36).slice(2, 8)}` },
  { needs: "viewServerFiles", method: "GET", path: (i) => `/proxy/daemon/server/${i}/file/` },
  { needs: "putServerFiles", method: "DELETE", path: (i) => `/proxy/daemon/server/${i}/file/nothing-here` },
  // The file manager's own calls: reading needs viewServerFiles, changing putServerFiles.
  { needs: "viewServerFiles", method: "GET", path: (i) => `/proxy/daemon/server/${i}/search?q=motd` },
  { needs: "viewServerFiles", method: "GET", path: (i) => `/proxy/daemon/server/${i}/zip?path=nothing-here` },
  { needs: "putServerFiles", method: "POST", path: (i) => `/proxy/daemon/server/${i}/move`, body: { from: "nothing-here", to: "nor-here" } },
  { needs: "putServerFiles", method: "POST", path: (i) => `/proxy/daemon/server/${i}/copy`, body: { from: "nothing-here", to: "nor-here" } },
  { needs: "putServerFiles", method: "POST", path: (i) => `/proxy/daemon/server/${i}/mode`, body: { path: "nothing-here", mode: "644" } },
  { needs: "editServerUsers", method: "GET", path: (i) => `/api/servers/${i}/user` },
  { needs: "admin", method: "GET", path: (i) => `/proxy/daemon/server/${i}` },
  { needs: "admin", method: "POST", path: (i) => `/proxy/daemon/server/${i}/reload` },
];

async function run(call: Call, token: string): Promise<number> {
  const body = call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body);
  const headers = typeof call.body === "object" ? { "content-type": "application/json" } : undefined;
  const res = await ctx.panel.request(call.path(id), { token, method: call.method, body, headers });
  await res.arrayBuffer();
  return res.status;
}

describe("per-server permissions through the proxy", () => {
  test.each(SERVER_FLAGS.map((f) => [f]))("holding only %s", async (flag) => {
    const user = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { [flag]: true }) });
    for (const call of CALLS) {
      const status = await run(call, user.token);
      const allowed = call.needs === "view" || call.needs === (flag as ServerFlag);
      if (allowed) expect({ call: call.path("X"), method: call.method, status }).not.toMatchObject({ status: 403 });
      else expect({ call: call.path("X"), method: call.method, status }).toMatchObject({ status: 403 });
    }
  }, 60_000);

  test("admin passes every check; a stranger passes none", async () => {
    const stranger = await loginAs(ctx.panel.db, []);
    for (const call of CALLS) {
      expect({ path: call.path("X"), status: await run(call, ctx.admin.token) }).not.toMatchObject({ status: 403 });
      expect({ path: call.path("X"), status: await run(call, stranger.token) }).toMatchObject({ status: 403 });
    }
  }, 60_000);

  test("calls the proxy does not offer are not found, and a missing login is 401", async () => {
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/nonsense`, { token: ctx.admin.token })).status).toBe(404);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}`, { token: ctx.admin.token, method: "DELETE" })).status).toBe(404);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/status`)).status).toBe(401);
  });

  test("variables a user may not edit are hidden from and closed to non-admins", async () => {
    const user = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { editServerData: true }) });
    const data = await (await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token })).json();
    expect(Object.keys(data.data)).toEqual(["greeting"]);
    const refused = await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { port: 1 } }) });
    expect(refused.status).toBe(403);
    expect((await node.json("GET", `/daemon/server/${id}`)).data.port.value).toBe(25565);
    // The admin may, and the panel's list follows the new port.
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx.admin.token, ...jsonInit("POST", { data: { port: 25599 } }) })).status).toBe(204);
    await eventually(async () => (await (await ctx.panel.request("/api/servers", { token: ctx.admin.token })).json()).servers[0].address === "localhost:25599");
  });
});
