// The reconcile of a node with the panel's rows (server/services/servers/reconcile.ts) against a
// real node: what a crash leaves (rows not "ready", definitions with no row) is finished, rolled
// back or, when this panel never issued the id, left in place; each with a log line.
// test/security/crash-durability.test.ts shows the same with a real process killed at random.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { getNodeRow } from "../server/services/nodes";
import { reconcileNode } from "../server/services/servers";
import { panelPerTest, setNodePort, type PanelWithNode } from "./helpers/panel-node";
import { freePort } from "./helpers/process";
import { recordNodeCalls } from "./helpers/node-recorder";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const onNode = async (id: string) => (await ctx.node.call("GET", `/daemon/server/${id}`)).status === 200;
const setState = async (id: string, state: "creating" | "deleting" | "ready") => await ctx.panel.db.update(schema.servers).set({ state }).where(eq(schema.servers.id, id)).run();
const rowOf = async (id: string) => await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get();

async function reconcileOnce(): Promise<string[]> {
  const lines: string[] = [];
  await reconcileNode(ctx.panel.db, await getNodeRow(ctx.panel.db, ctx.nodeId), (line) => lines.push(line));
  return lines;
}

describe("reconciling a node with the panel", () => {
  test("rows a crash left creating are rolled back and deleting ones finished, hidden until then, each logged", async () => {
    const { panel, admin } = ctx;
    const creating = await ctx.createServer("half made");
    const deleting = await ctx.createServer("half gone");
    const kept = await ctx.createServer("kept");
    await setState(creating, "creating");
    await setState(deleting, "deleting");
    // A creation killed before the node heard of it: a row and a ledger entry, nothing on the node.
    await panel.db.insert(schema.servers).values({ id: "0badc0de", name: "never sent", nodeId: ctx.nodeId, createdAt: new Date(), state: "creating" }).run();
    await panel.db.insert(schema.issuedServerIds).values({ id: "0badc0de" }).run();

    const list = await (await panel.request("/api/servers", { token: admin.token })).json();
    expect(list.servers.map((s: { id: string }) => s.id)).toEqual([kept]);
    expect(list.paging.total).toBe(1);
    expect((await panel.request(`/api/servers/${creating}`, { token: admin.token })).status).toBe(404);
    expect((await panel.request(`/api/servers/${deleting}`, { token: admin.token, method: "DELETE" })).status).toBe(404);

    const lines = await reconcileOnce();
    expect(lines).toContain(`kiln: rolled back the unfinished creation of server ${creating} on node test-node`);
    expect(lines).toContain(`kiln: finished the interrupted deletion of server ${deleting} on node test-node`);
    expect(lines).toContain("kiln: rolled back the unfinished creation of server 0badc0de on node test-node");
    for (const id of [creating, deleting, "0badc0de"]) expect(await rowOf(id)).toBeUndefined();
    expect(await onNode(creating)).toBe(false);
    expect(await onNode(deleting)).toBe(false);
    expect((await rowOf(kept))?.state).toBe("ready");
    expect(await onNode(kept)).toBe(true);
    // Nothing left to do: a second round says nothing about this panel's servers.
    expect((await reconcileOnce()).filter((line) => /rolled back|finished|removed/.test(line))).toEqual([]);
  });

  test("a definition whose creation this panel rolled back is removed; one it never issued is kept and logged once", async () => {
    const definition = { run: { command: "sh -c 'sleep 1'" } };
    expect((await ctx.node.call("PUT", "/daemon/server/5eed0001", definition)).status).toBe(201);
    await ctx.panel.db.insert(schema.issuedServerIds).values({ id: "5eed0001" }).run();
    expect((await ctx.node.call("PUT", "/daemon/server/foreign01", definition)).status).toBe(201);

    const lines = await reconcileOnce();
    expect(lines).toContain("kiln: removed server 5eed0001 from node test-node: its creation had been rolled back");
    expect(lines).toContain("kiln: node test-node holds server foreign01, which this panel does not know; left in place");
    expect(await onNode("5eed0001")).toBe(false);
    expect(await onNode("foreign01")).toBe(true);
    expect((await reconcileOnce()).filter((line) => line.includes("foreign01"))).toEqual([]);
    await ctx.node.call("DELETE", "/daemon/server/foreign01");
  });

  test("a node that does not answer: a deletion fails and the server is back, a leftover waits for the node", async () => {
    const { panel, admin, nodeId } = ctx;
    const id = await ctx.createServer("patient");
    const port = (await getNodeRow(panel.db, nodeId)).privatePort;
    await setNodePort(panel, nodeId, await freePort());
    const refused = await panel.request(`/api/servers/${id}`, { token: admin.token, method: "DELETE" });
    expect(refused.status).toBe(503);
    expect((await rowOf(id))?.state).toBe("ready");

    await setState(id, "deleting");
    expect(await reconcileOnce()).toEqual([]);
    expect((await rowOf(id))?.state).toBe("deleting");
    await setNodePort(panel, nodeId, port);
    expect(await reconcileOnce()).toContain(`kiln: finished the interrupted deletion of server ${id} on node test-node`);
    expect(await rowOf(id)).toBeUndefined();
    expect(await onNode(id)).toBe(false);
  });

  // A node's answers are read as a stranger's: a list of another shape reconciles nothing, says so
  // once per heartbeat, and throws nothing (it threw "onNode.length" of undefined).
  test("a node answering its list in another shape: nothing changes, a line says why", async () => {
    const creating = await ctx.createServer("half made");
    await setState(creating, "creating");
    for (const body of [{}, { servers: "x" }, { servers: [{ id: creating }] }, { servers: ["../x"] }, "not json"]) {
      const front = await recordNodeCalls(ctx, (req) => (req.method === "GET" && new URL(req.url).pathname === "/daemon/server" ? new Response(typeof body === "string" ? body : JSON.stringify(body), { headers: { "content-type": "application/json" } }) : undefined));
      try {
        const lines = await reconcileOnce();
        expect(lines).toEqual([`kiln: node test-node answered its server list in a shape the panel does not read; nothing reconciled`]);
        expect((await rowOf(creating))?.state).toBe("creating");
        expect(await onNode(creating)).toBe(true);
      } finally {
        front.stop();
        await setNodePort(ctx.panel, ctx.nodeId, ctx.node.node.port);
      }
    }
  });
});
