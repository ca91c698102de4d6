// The node page's Ports card, tags and draining, and bulk power, as a browser without script uses
// them, against a real test node: the pool with who holds each port (runs of free ports as one
// row), adding a range, an overlap refused by the form, removing a free port, a viewer without
// nodes.edit, the settings form's tags and draining, and stopping two servers at once.
import { describe, expect, test } from "bun:test";
import { HTML, loginAs } from "./helpers/app";
import { formInit, grantFlags, panelPerTest, type PanelWithNode } from "./helpers/panel-node";
import { SCOPES } from "../core/scopes";
import { addToPool, listPool } from "../server/services/allocations/pool";
import { getNodeRow } from "../server/services/nodes";

let ctx: PanelWithNode;
panelPerTest((made) => (ctx = made));

const post = (path: string, fields: Record<string, string> | URLSearchParams, token = ctx.admin.token) =>
  ctx.panel.request(path, { token, ...formInit({}), body: new URLSearchParams(fields).toString() });
const poolPorts = async () => (await listPool(ctx.panel.db, ctx.nodeId)).map((a) => a.port);
/** The part of the page from the element marked `testId` to the end of its element of `tag`. */
const part = (html: string, testId: string, tag = "section") => {
  const start = html.indexOf(`data-testid="${testId}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf(`</${tag}>`, start));
};
/** Whether the power card's box for server `id` is ticked. */
const ticked = (html: string, id: string) => new RegExp(`<input (?=[^>]*value="${id}")(?=[^>]*checked)[^>]*>`).test(html);
/** Follows a redirect the way a browser does, carrying the flash cookie it set. */
async function follow(res: Response, token = ctx.admin.token): Promise<string> {
  expect(res.status).toBe(303);
  const flash = /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const next = await ctx.panel.request(res.headers.get("location")!, { token, headers: { ...HTML, cookie: flash ? `kiln_flash=${flash}` : "" } });
  expect(next.status).toBe(200);
  return next.text();
}
/** The node's settings form as the page posts it, with the test node's own addresses. */
const settings = async (over: Record<string, string> = {}) => {
  const row = await getNodeRow(ctx.panel.db, ctx.nodeId);
  return { name: row.name, publicHost: row.publicHost, publicPort: String(row.publicPort), privateHost: row.privateHost, privatePort: String(row.privatePort), sftpPort: String(row.sftpPort), internalHost: "", tags: "", ...over };
};

describe("the Ports card", () => {
  test("lists the pool: a held port names its server, consecutive free ports are one row; 'Show each port' lists them one by one", async () => {
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: "30000-30009" });
    await addToPool(ctx.panel.db, ctx.nodeId, { ip: "10.0.0.5", ports: "40000", alias: "play.example.com" });
    // A new server takes the first free port for its port variable.
    const id = await ctx.createServer("alpha");
    const html = part((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html, "node-pool");
    expect(html).toContain("11 ports, 10 free");
    expect(html).toMatch(new RegExp(`<tr data-port="30000"[^>]*>.*?href="/server/${id}">alpha</a>`));
    expect(html).toContain('data-run="30001-30009"');
    expect(html).toContain("0.0.0.0:30001–30009");
    expect(html).toContain("9 free");
    expect(html).toContain("10.0.0.5:40000");
    expect(html).toContain("play.example.com");
    // The held port has no remove button; the run has none either; the lone free port has one.
    const removes = html.match(/action="\/node\/\d+\/allocations\/\d+\/delete#ports"/g) ?? [];
    expect(removes).toHaveLength(1);
    const each = part((await ctx.page(`/node/${ctx.nodeId}?ports=each`, ctx.admin.token)).html, "node-pool");
    expect(each).not.toContain("data-run=");
    expect(each.match(/\/delete#ports"/g)).toHaveLength(10);
  });

  test("an empty pool says so, with the add form for an editor", async () => {
    const html = part((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html, "node-pool");
    expect(html).toContain("The pool is empty");
    expect(html).toContain(`action="/node/${ctx.nodeId}/allocations#ports"`);
    expect(html).toContain('value="0.0.0.0"');
  });

  test("adding a range through the form: a redirect to the card with a toast, and the ports are in the pool", async () => {
    const res = await post(`/node/${ctx.nodeId}/allocations`, { ip: "0.0.0.0", ports: "31000-31004, 31010", alias: "play.example.com" });
    expect(res.headers.get("location")).toBe(`/node/${ctx.nodeId}#ports`);
    const html = await follow(res);
    expect(html).toContain("Ports added to the pool");
    expect(await poolPorts()).toEqual([31000, 31001, 31002, 31003, 31004, 31010]);
    expect((await listPool(ctx.panel.db, ctx.nodeId)).every((a) => a.alias === "play.example.com")).toBe(true);
    expect(part(html, "node-pool")).toContain('data-run="31000-31004"');
  });

  test("an overlap shows ErrAllocationExists's message by the add form, keeps what was typed and adds nothing", async () => {
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: "31000-31004" });
    const res = await post(`/node/${ctx.nodeId}/allocations`, { ip: "10.0.0.5", ports: "31003-31020", alias: "" });
    expect(res.status).toBe(409);
    const html = await res.text();
    const form = part(html, "pool-add", "form");
    expect(form).toContain("The ports were not added");
    expect(form).toContain("Port 31003 is already in this node&#x27;s pool (on 0.0.0.0)");
    expect(form).toContain('value="31003-31020"');
    expect(form).toContain('value="10.0.0.5"');
    expect(html).toContain("toast toast-error");
    expect(await poolPorts()).toEqual([31000, 31001, 31002, 31003, 31004]);
  });

  test("a port past 65535 is said at the Ports field, by its label", async () => {
    const res = await post(`/node/${ctx.nodeId}/allocations`, { ip: "0.0.0.0", ports: "65530-65540", alias: "" });
    expect(res.status).toBe(400);
    const form = part(await res.text(), "pool-add", "form");
    expect(form).toMatch(/aria-invalid="true"[^>]*name="ports"/);
    expect(form).toContain("Ports must be between 1 and 65535");
    expect(await poolPorts()).toEqual([]);
  });

  test("removing a free port; a held one is refused in the card and stays", async () => {
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: "32000-32001" });
    const server = await ctx.createServer("holder");
    const [held, free] = await listPool(ctx.panel.db, ctx.nodeId);
    expect(held!.serverId).toBe(server);
    const html = await follow(await post(`/node/${ctx.nodeId}/allocations/${free!.id}/delete`, {}));
    expect(html).toContain("Port removed from the pool");
    expect(await poolPorts()).toEqual([32000]);
    const refused = await post(`/node/${ctx.nodeId}/allocations/${held!.id}/delete`, {});
    expect(refused.status).toBe(409);
    expect(part(await refused.text(), "pool-remove-error", "div")).toContain("The port was not removed");
    expect(await poolPorts()).toEqual([32000]);
  });

  test("a nodes.view holder sees the pool but no forms, and posting them is refused with 403", async () => {
    const [port] = await addToPool(ctx.panel.db, ctx.nodeId, { ports: "33000" });
    const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
    const html = part((await ctx.page(`/node/${ctx.nodeId}`, viewer.token)).html, "node-pool");
    expect(html).toContain("0.0.0.0:33000");
    expect(html).not.toContain("<form");
    expect((await post(`/node/${ctx.nodeId}/allocations`, { ports: "33001" }, viewer.token)).status).toBe(403);
    expect((await post(`/node/${ctx.nodeId}/allocations/${port!.id}/delete`, {}, viewer.token)).status).toBe(403);
    expect(await poolPorts()).toEqual([33000]);
  });
});

describe("tags and draining", () => {
  test("are saved through the settings form and shown as badges on the page and in the list; an unticked box undrains", async () => {
    const html = await follow(await post(`/node/${ctx.nodeId}`, await settings({ tags: " location=eu, ssd,,ssd ", draining: "on" })));
    expect(await getNodeRow(ctx.panel.db, ctx.nodeId)).toMatchObject({ tags: ["location=eu", "ssd"], draining: true });
    expect(html).toContain('value="location=eu, ssd"');
    expect(html).toMatch(/name="draining"[^>]*checked/);
    const header = html.slice(html.indexOf('<h1 class="node-title"'), html.indexOf("</h1>"));
    expect(header).toContain("data-draining");
    expect(header).toContain('data-tag="location=eu"');
    const list = (await ctx.page("/node", ctx.admin.token)).html;
    expect(list).toMatch(/<tr data-node="test-node">.*data-draining.*data-tag="ssd"/);
    await follow(await post(`/node/${ctx.nodeId}`, await settings({ tags: "ssd" })));
    expect(await getNodeRow(ctx.panel.db, ctx.nodeId)).toMatchObject({ tags: ["ssd"], draining: false });
  });

  test("a word that is no tag is refused at the field, naming it, and nothing changes", async () => {
    await post(`/node/${ctx.nodeId}`, await settings({ tags: "ssd" }));
    const res = await post(`/node/${ctx.nodeId}`, await settings({ name: "renamed", tags: "ssd, bad tag!", draining: "on" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/aria-invalid="true"[^>]*name="tags"/);
    expect(html).toContain("“bad tag!” is not a tag");
    expect(html).toContain('value="ssd, bad tag!"');
    expect(await getNodeRow(ctx.panel.db, ctx.nodeId)).toMatchObject({ name: "test-node", tags: ["ssd"], draining: false });
  });

  test("a post without the tags field (a form of before) leaves tags and draining as they were", async () => {
    await post(`/node/${ctx.nodeId}`, await settings({ tags: "ssd", draining: "on" }));
    const { tags: _, ...without } = await settings({ name: "renamed" });
    expect((await post(`/node/${ctx.nodeId}`, without)).status).toBe(303);
    expect(await getNodeRow(ctx.panel.db, ctx.nodeId)).toMatchObject({ name: "renamed", tags: ["ssd"], draining: true });
  });
});

describe("bulk power", () => {
  test("stopping two ticked servers: a toast with the count; a viewer acting on one it may stop and one it may not sees which was refused and why", async () => {
    const alpha = await ctx.createServer("alpha");
    const beta = await ctx.createServer("beta");
    const gamma = await ctx.createServer("gamma");
    const card = part((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html, "node-power");
    for (const name of ["alpha", "beta", "gamma"]) expect(card).toContain(`<span>${name}</span>`);
    const body = new URLSearchParams([["servers", alpha], ["servers", beta], ["action", "stop"]]);
    const res = await post(`/node/${ctx.nodeId}/power`, body);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Asked 2 servers to stop");
    expect(html).not.toContain('data-testid="power-failed"');
    // The ticked servers stay ticked.
    expect(ticked(html, alpha)).toBe(true);
    expect(ticked(html, gamma)).toBe(false);

    // An operator who may stop alpha, and only see beta's console.
    const operator = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
    await grantFlags(ctx, alpha, operator.email, ["stopServer"]);
    await grantFlags(ctx, beta, operator.email, ["viewServerConsole"]);
    const mixed = await (await post(`/node/${ctx.nodeId}/power`, body, operator.token)).text();
    expect(mixed).toContain("Asked 1 server to stop");
    const failed = part(mixed, "power-failed", "ul");
    expect(failed).toContain("1 server refused or failed");
    expect(failed).toContain(`data-server="${beta}"`);
    expect(failed).toContain("<strong>beta</strong>: You do not have permission to perform this action");
    expect(failed).not.toContain(alpha);
  });

  test("with none ticked, the buttons act on every server the viewer may see; a viewer of none is told there is nothing", async () => {
    await ctx.createServer("alpha");
    await ctx.createServer("beta");
    const html = await (await post(`/node/${ctx.nodeId}/power`, { action: "kill" })).text();
    expect(html).toContain("Asked 2 servers to stop at once (kill)");
    const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
    const page = await ctx.page(`/node/${ctx.nodeId}`, viewer.token);
    expect(part(page.html, "node-power")).toContain("No servers on this node");
    expect(await (await post(`/node/${ctx.nodeId}/power`, { action: "stop" }, viewer.token)).text()).toContain("There is no server on this node to act on");
  });
});
