// The server page's Network tab and the add-server form's "Best node" as plain forms (no script)
// against a real node: the ports a server holds, listed for everyone who sees it; taking, making
// primary and giving back through the forms for administrators and holders of manageAllocations
// (these up to the server's limit, which administrators set); a node without a pool; and a server
// placed by "Best node", whose page says where it went and why.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { flashOf } from "./helpers/app";
import { formInit, panelWithNode, userWithFlags, type PanelWithNode } from "./helpers/panel-node";
import { addToPool, listPool } from "../server/services/allocations/pool";

let ctx: PanelWithNode;

beforeAll(async () => {
  ctx = await panelWithNode();
});
afterAll(async () => {
  await ctx.node.stop();
});

const post = (path: string, token: string, fields: Record<string, string> = {}) => ctx.panel.request(path, { token, ...formInit(fields) });
const networkTab = async (id: string, token: string) => {
  const { status, html } = await ctx.page(`/server/${id}?tab=network`, token);
  expect(status).toBe(200);
  return html;
};
const poolId = async (port: number) => (await listPool(ctx.panel.db, ctx.nodeId)).find((a) => a.port === port)!.id;
const portVariable = async (id: string) => (await ctx.node.json("GET", `/daemon/server/${id}`)).data.port.value as number;
/** The addresses the tab lists, the primary marked with a star. */
const listed = (html: string) => [...html.matchAll(/data-testid="allocation" data-allocation="\d+"( data-primary="")?.*?<code dir="ltr">([^<]+)<\/code>/g)].map((m) => `${m[2]}${m[1] ? "*" : ""}`);

describe("the Network tab", () => {
  let plain: string;

  test("a server on a node without a pool uses its variables' ports; the administrator is pointed at the node's Ports", async () => {
    plain = await ctx.createServer("net-plain");
    const html = await networkTab(plain, ctx.admin.token);
    expect(html).toContain('data-hotkey="t n"');
    expect(html).toContain("This server uses the ports its variables name");
    expect(html).toContain(`href="/node/${ctx.nodeId}#ports"`);
    expect(html).not.toContain('data-testid="network-add"');
    const viewer = await userWithFlags(ctx, plain, ["viewServerConsole"]);
    const theirs = await networkTab(plain, viewer.token);
    expect(theirs).toContain("This server uses the ports its variables name");
    expect(theirs).not.toContain("#ports");
  });

  test("with a pool: listed with the Primary badge; an administrator adds a chosen port, makes it primary and gives the old one back", async () => {
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: "30100-30103" });
    // A server made before the pool holds none of it, and may take one.
    const before = await networkTab(plain, ctx.admin.token);
    expect(before).toContain("This server holds no port of its node");
    expect(before).toContain('data-testid="network-add"');

    const id = await ctx.createServer("net-one");
    let html = await networkTab(id, ctx.admin.token);
    expect(listed(html)).toEqual(["localhost:30100*"]);
    expect(html).toContain(">Primary<");
    // The primary is neither made primary nor given back.
    expect(html).not.toContain('data-testid="make-primary"');
    expect(html).toContain(`<option value="${await poolId(30102)}">localhost:30102</option>`);
    expect(html).toContain(">Extra ports: 0<");
    expect(html).toContain('data-testid="network-limit"');

    const added = await post(`/server/${id}/network/add`, ctx.admin.token, { allocationId: String(await poolId(30102)) });
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe(`/server/${id}?tab=network`);
    expect(flashOf(added)).toBe("network.added");
    html = await networkTab(id, ctx.admin.token);
    expect(listed(html)).toEqual(["localhost:30100*", "localhost:30102"]);
    expect(html).toContain(">Extra ports: 1<");

    const primary = await post(`/server/${id}/network/${await poolId(30102)}/primary`, ctx.admin.token);
    expect(flashOf(primary)).toBe("network.madePrimary");
    expect(listed(await networkTab(id, ctx.admin.token))).toEqual(["localhost:30102*", "localhost:30100"]);
    expect(await portVariable(id)).toBe(30102);

    const back = await post(`/server/${id}/network/${await poolId(30100)}/remove`, ctx.admin.token);
    expect(flashOf(back)).toBe("network.givenBack");
    expect(listed(await networkTab(id, ctx.admin.token))).toEqual(["localhost:30102*"]);

    // The primary is refused in the words of the catalogue, on the tab.
    const refused = await post(`/server/${id}/network/${await poolId(30102)}/remove`, ctx.admin.token);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Port 30102 is the server&#x27;s primary address");
    // An allocation the server does not hold is not found.
    expect((await post(`/server/${id}/network/${await poolId(30101)}/primary`, ctx.admin.token)).status).toBe(404);
    expect((await post(`/server/${id}/network/nope/remove`, ctx.admin.token)).status).toBe(404);
  });

  test("a viewer sees the list and no forms, and is refused posting them; a holder of manageAllocations is kept to the limit the administrator sets", async () => {
    const id = await ctx.createServer("net-two");
    const viewer = await userWithFlags(ctx, id, ["viewServerConsole"]);
    const seen = await networkTab(id, viewer.token);
    expect(listed(seen)).toHaveLength(1);
    for (const form of ["network-add", "network-limit", "make-primary", "give-back"]) expect(seen).not.toContain(`data-testid="${form}"`);
    expect(seen).not.toContain(`action="/server/${id}/network`);
    expect((await post(`/server/${id}/network/add`, viewer.token)).status).toBe(403);
    expect((await post(`/server/${id}/network/limit`, viewer.token, { limit: "5" })).status).toBe(403);

    const manager = await userWithFlags(ctx, id, ["manageAllocations"]);
    const theirs = await networkTab(id, manager.token);
    expect(theirs).toContain('data-testid="network-add"');
    expect(theirs).not.toContain('data-testid="network-limit"');
    expect(theirs).toContain("holds as many extra ports as its limit allows: an administrator can raise it");
    const limited = await post(`/server/${id}/network/add`, manager.token, { allocationId: "" });
    expect(limited.status).toBe(403);
    expect(await limited.text()).toContain("This server already holds as many extra ports as its limit allows (0)");
    // Only an administrator sets the limit; a value out of bounds is refused.
    expect((await post(`/server/${id}/network/limit`, manager.token, { limit: "3" })).status).toBe(403);
    const bad = await post(`/server/${id}/network/limit`, ctx.admin.token, { limit: "101" });
    expect(bad.status).toBe(400);
    const saved = await post(`/server/${id}/network/limit`, ctx.admin.token, { limit: "1" });
    expect(flashOf(saved)).toBe("network.limitSaved");

    const took = await post(`/server/${id}/network/add`, manager.token, { allocationId: "" });
    expect(flashOf(took)).toBe("network.added");
    const after = await networkTab(id, manager.token);
    expect(listed(after)).toHaveLength(2);
    expect(after).toContain("Extra ports: 1 of 1");
    expect(after).toContain('data-testid="make-primary"');
    expect((await post(`/server/${id}/network/add`, manager.token)).status).toBe(403);
  });
});

describe("the add-server form's Best node", () => {
  // As the form sends them: every variable, the port at the template's default too.
  const fields = (name: string, more: Record<string, string> = {}) => ({ template: "echo", name, node: "auto", environment: "standard", user: ctx.admin.email, constraints: "", "var.greeting": "hi", "var.port": "25565", ...more });

  test("offers Best node first, with the tags field", async () => {
    const { html } = await ctx.page("/addserver?template=echo", ctx.admin.token);
    expect(html).toMatch(/<select name="node"[^>]*><option value="auto">Best node \(chosen by free memory, CPU and ports\)<\/option><option value="\d+" selected="">test-node/);
    expect(html).toContain('name="constraints"');
  });

  test("places the server and its page says where and why, once", async () => {
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: "30200-30209" });
    const res = await post("/addserver", ctx.admin.token, fields("net-placed"));
    expect(res.status).toBe(303);
    expect(flashOf(res)).toBe("servers.created");
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/server\/[0-9a-f]{8}\?placed=[\w-]+$/);
    const { html } = await ctx.page(location, ctx.admin.token);
    expect(html).toContain('data-testid="placement-notice"');
    expect(html).toMatch(/Placed on test-node: [\d.]+ [kMGT]?B memory free, \d+% CPU busy, [\d.]+ [kMGT]?B disk free, \d+ ports? free/);
    // The token is the server's: another server's page says nothing of it.
    const id = location.split("?")[0]!.split("/").pop()!;
    const other = await ctx.createServer("net-unplaced");
    expect((await ctx.page(location.replace(id, other), ctx.admin.token)).html).not.toContain('data-testid="placement-notice"');
    expect((await ctx.page(`/server/${id}`, ctx.admin.token)).html).not.toContain('data-testid="placement-notice"');
  });

  test("tags no node carries: the form says what no node had; a named node ignores the hidden tags field", async () => {
    const refused = await post("/addserver", ctx.admin.token, fields("net-tagged", { constraints: "location=eu, ssd" }));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("No node can take this server now (short of: nodes carrying the tags asked for)");
    expect(html).toContain('value="location=eu, ssd"');
    const named = await post("/addserver", ctx.admin.token, fields("net-named", { node: String(ctx.nodeId), constraints: "location=eu" }));
    expect(named.status).toBe(303);
    expect(named.headers.get("location")).toMatch(/^\/server\/[0-9a-f]{8}$/);
    // A port typed in (not the template's default) must be one of the pool's free ports.
    const typed = await post("/addserver", ctx.admin.token, fields("net-typed", { "var.port": "29999" }));
    expect(typed.status).toBe(409);
    expect(await typed.text()).toContain("variables.port comes from the server&#x27;s allocations (port 29999)");
  });
});
