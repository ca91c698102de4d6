// GET /api/servers's answer is kept between polls (services/servers/list-answer). Attacks on what
// is kept: one caller's list served to another, an access taken away still listed, a client bound
// to one server served its owner's whole list, Host values sent to push out or mix up answers.
import { expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { jsonInit, panelPerTest, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

type Listed = { servers: Array<{ id: string; name: string; address: string; players?: unknown }>; paging: { total: number } };
const list = async (auth: { token?: string; bearer?: string }, host?: string): Promise<Listed> => {
  const res = await ctx.panel.request("/api/servers", { token: auth.token, host, headers: auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {} });
  expect(res.status).toBe(200);
  return await res.json();
};
const names = (listed: Listed) => listed.servers.map((s) => s.name);

test("no caller is answered another's kept list, whoever polled first", async () => {
  const alpha = await ctx.createServer("Alpha");
  const beta = await ctx.createServer("Beta");
  await ctx.createServer("Gamma");
  const ann = await ctx.userWith(alpha, { viewServer: true });
  const bob = await ctx.userWith(beta, { viewServerStats: true });
  for (let poll = 0; poll < 2; poll++) {
    expect(names(await list({ token: ctx.admin.token }))).toEqual(["Alpha", "Beta", "Gamma"]);
    expect(names(await list({ token: ann.token }))).toEqual(["Alpha"]);
    expect(names(await list({ token: bob.token }))).toEqual(["Beta"]);
  }
  // Ann may not read players on Alpha: no figure, however Alpha's is kept for Bob or the admin.
  expect((await list({ token: ann.token })).servers[0]).not.toHaveProperty("players");
});

test("an access taken away is gone from the very next poll: a share, a flag, the admin scope", async () => {
  const alpha = await ctx.createServer("Alpha");
  await ctx.createServer("Beta");
  const ann = await ctx.userWith(alpha, { viewServerStats: true });
  expect((await list({ token: ann.token })).servers[0]).toHaveProperty("players");
  expect((await ctx.panel.request(`/api/servers/${alpha}/user/${encodeURIComponent(ann.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { viewServer: true }) })).status).toBeLessThan(300);
  expect((await list({ token: ann.token })).servers[0]).not.toHaveProperty("players");
  expect((await ctx.panel.request(`/api/servers/${alpha}/user/${encodeURIComponent(ann.email)}`, { token: ctx.admin.token, method: "DELETE" })).status).toBeLessThan(300);
  expect(await list({ token: ann.token })).toEqual({ servers: [], paging: expect.objectContaining({ total: 0 }) });

  const deputy = await ctx.userWith(alpha, { viewServer: true });
  expect((await ctx.panel.request(`/api/users/${deputy.userId}/perms`, { token: ctx.admin.token, ...jsonInit("PUT", { scopes: [SCOPES.admin] }) })).status).toBeLessThan(300);
  expect(names(await list({ token: deputy.token }))).toEqual(["Alpha", "Beta"]);
  expect((await ctx.panel.request(`/api/users/${deputy.userId}/perms`, { token: ctx.admin.token, ...jsonInit("PUT", { scopes: [] }) })).status).toBeLessThan(300);
  expect(names(await list({ token: deputy.token }))).toEqual(["Alpha"]);
});

test("a client bound to one server lists that one, not its owner's kept list", async () => {
  const alpha = await ctx.createServer("Alpha");
  await ctx.createServer("Beta");
  expect(names(await list({ token: ctx.admin.token }))).toEqual(["Alpha", "Beta"]);
  const client = await (await ctx.panel.request(`/api/servers/${alpha}/oauth2`, { token: ctx.admin.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) })).json();
  const issued = await (await ctx.panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` })).json();
  expect(names(await list({ bearer: issued.access_token }))).toEqual(["Alpha"]);
  expect(names(await list({ token: ctx.admin.token }))).toEqual(["Alpha", "Beta"]);
});

test("a flood of Host values pushes out nothing but kept answers: each is still answered for its own host", async () => {
  await ctx.createServer("Alpha");
  for (let i = 0; i < 600; i++) await list({ token: ctx.admin.token }, `h${i}.example`);
  for (const host of ["h0.example", "h599.example", "panel.example"]) expect((await list({ token: ctx.admin.token }, host)).servers[0]!.address).toStartWith(`${host}:`);
});
