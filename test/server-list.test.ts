// The server list screen without script: status from the node, owner,
// search by name or id, node and status filters, sorting by the headings, paging that keeps the
// query, in one request; and GET /api/servers/live, the one call the list's island polls.
import { describe, expect, test } from "bun:test";
import { STATUS_FRESH_MS } from "../server/services/servers/live-values";
import { loginAs } from "./helpers/app";
import { eventually } from "./helpers/node";
import { freePort } from "./helpers/process";
import { panelPerTest, setNodePort, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

/** The names of the rows of a list page, in order. */
const names = (html: string) => [...html.matchAll(/<td class="servers-list-name"><a href="\/server\/[0-9a-f]+">([^<]*)<\/a>/g)].map((m) => m[1]);

/** Servers these tests start share a node: each gets its own game port (a node refuses a port another server publishes). */
let port = 30_000;
const ownPort = () => ({ variables: { port: port++ } });

async function start(id: string) {
  const res = await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { method: "POST", token: ctx.admin.token });
  expect(res.status).toBeLessThan(300);
}

describe("server list", () => {
  test("status dot from the node, owner, id and address on each row; one island for live values", async () => {
    const alpha = await ctx.createServer("Alpha", ownPort());
    await ctx.createServer("Beta");
    await start(alpha);
    const { html } = await ctx.page("/server", ctx.admin.token);
    expect(names(html)).toEqual(["Alpha", "Beta"]);
    expect(html).toMatch(new RegExp(`data-server-row="${alpha}"><td class="servers-list-status"><span class="server-status-dot is-online"`));
    expect(html).toContain('data-status="offline"');
    expect(html).toContain(`<code class="muted">${alpha}</code>`);
    expect(html).toContain('data-label="Owner">user');
    expect((html.match(/data-island="ServerListLive"/g) ?? []).length).toBe(1);
  });

  test("a start or stop shows on the very next page, and on every one of ten asked at once (kept pages and shared status questions hold nothing old)", async () => {
    const alpha = await ctx.createServer("Alpha", ownPort());
    const dot = (html: string) => new RegExp(`data-server-row="${alpha}"><td class="servers-list-status"><span class="server-status-dot is-(\\w+)"`).exec(html)?.[1];
    expect(dot((await ctx.page("/server", ctx.admin.token)).html)).toBe("offline");
    await start(alpha);
    expect(dot((await ctx.page("/server", ctx.admin.token)).html)).toBe("online");
    const crowd = await Promise.all(Array.from({ length: 10 }, () => ctx.page("/server", ctx.admin.token)));
    expect(crowd.map(({ html }) => dot(html))).toEqual(Array(10).fill("online"));
    expect((await ctx.panel.request(`/proxy/daemon/server/${alpha}/stop?wait=true`, { method: "POST", token: ctx.admin.token })).status).toBeLessThan(300);
    expect(dot((await ctx.page("/server", ctx.admin.token)).html)).toBe("offline");
  });

  test("a stop the node makes without the panel (here asked of the node directly) shows within the time a status answer is kept", async () => {
    const beta = await ctx.createServer("Beta", ownPort());
    const dot = (html: string) => new RegExp(`data-server-row="${beta}"><td class="servers-list-status"><span class="server-status-dot is-(\\w+)"`).exec(html)?.[1];
    await start(beta);
    expect(dot((await ctx.page("/server", ctx.admin.token)).html)).toBe("online");
    expect((await ctx.node.call("POST", `/daemon/server/${beta}/stop?wait=true`)).status).toBeLessThan(300);
    await Bun.sleep(STATUS_FRESH_MS + 50);
    expect(dot((await ctx.page("/server", ctx.admin.token)).html)).toBe("offline");
  });

  test("search by name or id, filter by node and status, sort by the headings; the pager keeps the query", async () => {
    const ids: Record<string, string> = {};
    for (const name of ["Creative", "Lobby", "Survival", "Skyblock"]) ids[name] = await ctx.createServer(name, ownPort());
    await start(ids.Lobby!);

    expect(names((await ctx.page("/server?q=s", ctx.admin.token)).html)).toEqual(["Survival", "Skyblock"].sort());
    expect(names((await ctx.page(`/server?q=${ids.Lobby!.slice(0, 6)}`, ctx.admin.token)).html)).toEqual(["Lobby"]);
    // % and _ are letters in a search, not wildcards.
    expect(names((await ctx.page("/server?q=%25", ctx.admin.token)).html)).toEqual([]);
    expect((await ctx.page("/server?q=zzz", ctx.admin.token)).html).toContain("No server matches these filters.");
    expect(names((await ctx.page(`/server?node=${ctx.nodeId}&sort=name&dir=desc`, ctx.admin.token)).html)).toEqual(["Survival", "Skyblock", "Lobby", "Creative"]);
    expect(names((await ctx.page("/server?node=999", ctx.admin.token)).html)).toEqual([]);
    expect(names((await ctx.page("/server?status=online", ctx.admin.token)).html)).toEqual(["Lobby"]);
    expect(names((await ctx.page("/server?status=offline", ctx.admin.token)).html)).toEqual(["Creative", "Skyblock", "Survival"]);
    // The name heading links to the other direction; unknown values are ignored, not errors.
    const sorted = await ctx.page("/server?sort=name", ctx.admin.token);
    expect(sorted.html).toContain('href="/server?dir=desc"');
    const odd = await ctx.page("/server?sort=__proto__&status=x&node=-1&dir=up", ctx.admin.token);
    expect(odd.status).toBe(200);
    expect(names(odd.html)).toEqual(["Creative", "Lobby", "Skyblock", "Survival"]);

    // Eleven more: a second page, whose links keep the search.
    for (let i = 0; i < 11; i++) await ctx.createServer(`Spare ${String(i).padStart(2, "0")}`);
    const first = await ctx.page("/server?q=spare&dir=desc", ctx.admin.token);
    expect(names(first.html)).toHaveLength(10);
    expect(first.html).toContain('href="/server?q=spare&amp;dir=desc&amp;page=2"');
    expect(names((await ctx.page("/server?q=spare&dir=desc&page=2", ctx.admin.token)).html)).toEqual(["Spare 00"]);
  }, 30_000);

  test("sort by owner; a user sees only their servers and only their nodes in the filter", async () => {
    const mine = await ctx.createServer("Mine");
    await ctx.createServer("Not mine");
    const user = await ctx.userWith(mine, { viewServerConsole: true });
    const { html } = await ctx.page("/server?sort=owner", user.token);
    expect(names(html)).toEqual(["Mine"]);
    expect(html).toContain('<option value="' + ctx.nodeId + '">test-node</option>');
    expect(html).not.toContain("Not mine");
    const stranger = await loginAs(ctx.panel.db, []);
    const empty = await ctx.page("/server", stranger.token);
    // No scope, no server: told an administrator must give access, with no Add button.
    expect(empty.html).toContain("You have no servers yet.");
    expect(empty.html).toContain(`with the email address you signed in with (${stranger.email})`);
    expect(empty.html).not.toContain('href="/addserver"');
    expect(empty.html).not.toContain("test-node</option>");
  });
});

describe("GET /api/servers/live", () => {
  test("status for every server the caller sees, CPU and memory only with viewServerStats; others left out", async () => {
    const running = await ctx.createServer("Running", ownPort());
    const stopped = await ctx.createServer("Stopped");
    await start(running);
    const get = async (ids: string, token = ctx.admin.token) => ctx.panel.request(`/api/servers/live?ids=${ids}`, { token });
    let body: any;
    await eventually(async () => {
      body = await (await get(`${running},${stopped},ffffffff,__proto__`)).json();
      // A server just made may still be installing (its install runs on its own).
      return typeof body.servers[running]?.cpu === "number" && body.servers[stopped]?.installing === false;
    }, 10_000, "stats of the running server, the other's install done");
    expect(body.servers[running].status).toBe("online");
    expect(body.servers[running].memory).toBeGreaterThan(0);
    expect(body.servers[stopped]).toEqual({ status: "offline", installing: false });
    expect(Object.keys(body.servers).sort()).toEqual([running, stopped].sort());

    const viewer = await ctx.userWith(running, { viewServerConsole: true });
    const theirs = await (await get(`${running},${stopped}`, viewer.token)).json();
    expect(Object.keys(theirs.servers)).toEqual([running]);
    expect(theirs.servers[running]).toEqual({ status: "online", installing: false });

    expect((await get("")).status).toBe(400);
    const tooMany = await get(Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(8, "0")).join(","));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.code).toBe("ErrFieldTooLarge");
    expect((await ctx.panel.request(`/api/servers/live?ids=${running}`)).status).toBe(401);
  }, 20_000);

  test("a node that does not answer: its servers are unknown, and the list API still answers (players null)", async () => {
    const ids = [await ctx.createServer("One"), await ctx.createServer("Two")];
    // A port free a moment ago: nothing listens there.
    await setNodePort(ctx.panel, ctx.nodeId, await freePort());
    const body = await (await ctx.panel.request(`/api/servers/live?ids=${ids.join(",")}`, { token: ctx.admin.token })).json();
    expect(body.servers).toEqual({ [ids[0]!]: { status: "unknown" }, [ids[1]!]: { status: "unknown" } });
    const list = await (await ctx.panel.request("/api/servers", { token: ctx.admin.token })).json();
    expect(list.servers.map((entry: { players?: unknown }) => entry.players)).toEqual([null, null]);
  });
});
