// GET /api/servers's answer is kept as bytes between polls (services/servers/list-answer): what a
// poll gets is what the same request builds afresh, and a write shows in the very next poll.
import { expect, test } from "bun:test";
import { findSessionUser } from "../server/services/sessions";
import { listServers } from "../server/services/servers";
import { withPlayerCounts } from "../server/services/servers/players-query";
import { pagingAnswer } from "../server/paging";
import { jsonInit, panelPerTest, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

const list = async (token: string, query = "", host?: string) => {
  const res = await ctx.panel.request(`/api/servers${query}`, { token, host });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  return await res.text();
};

/** The answer as the services build it, without anything kept. */
async function builtAfresh(token: string, page: number, limit: number, host: string): Promise<string> {
  const user = (await findSessionUser(ctx.panel.db, token))!;
  const { servers, total } = await listServers(ctx.panel.db, user, page, limit, host);
  return JSON.stringify({ servers: await withPlayerCounts(ctx.panel.db, user, servers), paging: pagingAnswer(page, limit, total) });
}

test("each poll answers what the services build afresh, for administrators and users, page by page", async () => {
  const ids = [];
  for (const name of ["Alpha", "Beta", "Gamma"]) ids.push(await ctx.createServer(name));
  const user = await ctx.userWith(ids[1]!, { viewServerStats: true });
  for (let poll = 0; poll < 3; poll++) {
    expect(await list(ctx.admin.token)).toBe(await builtAfresh(ctx.admin.token, 1, 10, "localhost"));
    expect(await list(ctx.admin.token, "?page=2&limit=2")).toBe(await builtAfresh(ctx.admin.token, 2, 2, "localhost"));
    expect(await list(user.token)).toBe(await builtAfresh(user.token, 1, 10, "localhost"));
  }
  const shown = JSON.parse(await list(user.token));
  expect(shown.servers.map((s: { name: string }) => s.name)).toEqual(["Beta"]);
  // viewServerStats reads players: the figure's key is there (null: the echo server declares no query).
  expect(shown.servers[0]).toHaveProperty("players", null);
});

test("a rename, a new server and a deletion show in the next poll", async () => {
  const alpha = await ctx.createServer("Alpha");
  expect(JSON.parse(await list(ctx.admin.token)).servers.map((s: { name: string }) => s.name)).toEqual(["Alpha"]);
  expect((await ctx.panel.request(`/api/servers/${alpha}/name/Aleph`, { token: ctx.admin.token, method: "PUT" })).status).toBeLessThan(300);
  expect(JSON.parse(await list(ctx.admin.token)).servers.map((s: { name: string }) => s.name)).toEqual(["Aleph"]);
  const beta = await ctx.createServer("Beta");
  expect(JSON.parse(await list(ctx.admin.token)).paging.total).toBe(2);
  expect((await ctx.panel.request(`/api/servers/${beta}`, { token: ctx.admin.token, ...jsonInit("DELETE") })).status).toBeLessThan(300);
  expect(JSON.parse(await list(ctx.admin.token)).servers.map((s: { id: string }) => s.id)).toEqual([alpha]);
});

test("addresses read as the host each request asked by", async () => {
  await ctx.createServer("Alpha");
  const first = JSON.parse(await list(ctx.admin.token, "", "panel.example"));
  const second = JSON.parse(await list(ctx.admin.token, "", "other.example"));
  expect(first.servers[0].address).toStartWith("panel.example:");
  expect(second.servers[0].address).toStartWith("other.example:");
  expect(JSON.parse(await list(ctx.admin.token, "", "panel.example")).servers[0].address).toStartWith("panel.example:");
});

test("the list and the public config carry the headers every JSON answer carries", async () => {
  const id = await ctx.createServer("Alpha");
  const headersOf = async (path: string, token?: string) => [...(await ctx.panel.request(path, { token })).headers];
  const single = await headersOf(`/api/servers/${id}`, ctx.admin.token);
  expect(single.map(([name]) => name)).toContain("x-frame-options");
  expect(await headersOf("/api/servers", ctx.admin.token)).toEqual(single);
  expect(await headersOf("/api/config")).toEqual(single);
  expect(await headersOf("/api/config", ctx.admin.token)).toEqual(single);
});
