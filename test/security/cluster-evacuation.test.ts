// Evacuating a draining node moves its servers away, one evacuation per node at a time, its list
// of moves shown on the node's page and by GET /api/nodes/{id}/evacuate. Both lived in the memory
// of the panel process that started it: behind a round-robin balancer the other panel showed no
// evacuation at all, and started a second one of the same node beside the first. The evacuation
// is now held under a lease and its list kept in the database. Two real panel processes on one
// PostgreSQL database, two real nodes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { jsonCall, killPanels, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";

let db: Db;
let a: PanelProcess;
let b: PanelProcess;
let from: TestNode;
let to: TestNode;
let admin: string;
let fromId: number;

type Evacuation = { state: string; servers: Array<{ serverId: string; state: string; to: string | null; error: string | null }> } | null;

describe.if(hasPostgres())("two panels on one PostgreSQL database: evacuating a node", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    [from, to] = await Promise.all([startTestNode(), startTestNode()]);
    const row = (name: string, node: TestNode) => ({ name, publicHost: "127.0.0.1", publicPort: node.node.port, privateHost: "127.0.0.1", privatePort: node.node.port, sftpPort: 1, secret: node.config.secret, createdAt: new Date() });
    [{ id: fromId }] = (await db.insert(schema.nodes).values(row("node-a", from)).returning({ id: schema.nodes.id }).all()) as [{ id: number }];
    await db.insert(schema.nodes).values(row("node-b", to)).run();
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    admin = await sessionAt(a.base);
    expect((await fetch(`${a.base}/api/templates/echo`, jsonCall("PUT", echoTemplate(), admin))).ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await killPanels([a, b].filter(Boolean));
    await from?.stop();
    await to?.stop();
    await db?.$kiln.close();
  });

  const call = (panel: PanelProcess, method: string, path: string) => fetch(`${panel.base}${path}`, jsonCall(method, undefined, admin));

  /** Echo servers of these names made on the source node through panel A, once installed. */
  async function installedOnSource(names: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      const made = await fetch(`${a.base}/api/servers`, jsonCall("POST", { name, node: fromId, template: "echo", environment: { type: "standard" } }, admin));
      expect(made.status).toBe(201);
      ids.push(((await made.json()) as { id: string }).id);
    }
    for (const id of ids) await eventually(() => existsSync(from.folder(id, "motd.txt")), 30_000, "the install");
    return ids;
  }

  test("the other panel shows the evacuation, and starts no second one while it runs", async () => {
    const ids = await installedOnSource(["evac-one", "evac-two"]);
    await db.update(schema.nodes).set({ draining: true }).where(eq(schema.nodes.id, fromId)).run();
    expect((await call(a, "POST", `/api/nodes/${fromId}/evacuate`)).status).toBe(202);
    const second = await call(b, "POST", `/api/nodes/${fromId}/evacuate`);
    expect([second.status, ((await second.json()) as { error?: { code: string } }).error?.code]).toEqual([409, "ErrTransferInProgress"]);
    let seen: Evacuation = null;
    await eventually(async () => {
      seen = (await (await call(b, "GET", `/api/nodes/${fromId}/evacuate`)).json()) as Evacuation;
      return seen?.state === "done";
    }, 120_000, "the evacuation, seen through the other panel");
    expect(seen!.servers.map((s) => [s.serverId, s.state, s.to, s.error]).sort()).toEqual(ids.map((id) => [id, "done", "node-b", null]).sort());
    // Both panels show the same list once it is done.
    expect(await (await call(a, "GET", `/api/nodes/${fromId}/evacuate`)).json()).toEqual(seen);
  }, 150_000);

  test("a panel whose lease was taken over starts no further move", async () => {
    // A panel that stalls past the lease's life (a long pause, a database that did not answer)
    // loses the lease, and another panel may start the evacuation again. The first renewed in
    // the background without looking at the answer and went on starting moves beside the second.
    await db.update(schema.nodes).set({ draining: false }).where(eq(schema.nodes.id, fromId)).run();
    const ids = await installedOnSource(["lease-one", "lease-two", "lease-three", "lease-four", "lease-five"]);
    await db.update(schema.nodes).set({ draining: true }).where(eq(schema.nodes.id, fromId)).run();
    expect((await call(a, "POST", `/api/nodes/${fromId}/evacuate`)).status).toBe(202);
    // Another panel holds the lease from now on, as one does that took it over after a stall.
    await db.update(schema.leases).set({ holder: "another-panel", expiresAt: Date.now() + 10 * 60_000 }).where(eq(schema.leases.name, `evacuation:${fromId}`)).run();
    const onFrom = async () => (await db.select({ id: schema.servers.id }).from(schema.servers).where(eq(schema.servers.nodeId, fromId)).all()).filter(({ id }) => ids.includes(id)).length;
    const moving = async () => (await db.select({ state: schema.transfers.state, serverId: schema.transfers.serverId }).from(schema.transfers).all()).filter((t) => ids.includes(t.serverId) && !["done", "failed", "cancelled"].includes(t.state)).length;
    // The moves under way when it lost the lease finish (two at a time); then nothing more starts.
    await Bun.sleep(6_000);
    await eventually(async () => (await moving()) === 0, 90_000, "the moves under way to end");
    await Bun.sleep(8_000);
    expect(await moving()).toBe(0);
    expect(await onFrom()).toBeGreaterThanOrEqual(ids.length - 2);
  }, 180_000);

  test("a panel killed mid-evacuation: its lease lapses, its list shows what did not finish, and evacuating again through the other panel moves the rest", async () => {
    await db.delete(schema.leases).where(eq(schema.leases.name, `evacuation:${fromId}`)).run();
    const left = async () => (await db.select({ id: schema.servers.id }).from(schema.servers).where(eq(schema.servers.nodeId, fromId)).all()).length;
    expect(await left()).toBeGreaterThan(0);
    expect((await call(a, "POST", `/api/nodes/${fromId}/evacuate`)).status).toBe(202);
    await killPanels([a]);
    // The lease is never released: it lapses, and the other panel shows the list as ended.
    await eventually(async () => ((await (await call(b, "GET", `/api/nodes/${fromId}/evacuate`)).json()) as Evacuation)?.state === "done", 30_000, "the killed panel's evacuation to show as ended");
    // Evacuating again (once the killed panel's moves are failed by the other) empties the node.
    await eventually(async () => {
      const view = (await (await call(b, "GET", `/api/nodes/${fromId}/evacuate`)).json()) as Evacuation;
      if (view?.state !== "running") await call(b, "POST", `/api/nodes/${fromId}/evacuate`);
      if ((await left()) === 0) return true;
      await Bun.sleep(1_000);
      return false;
    }, 150_000, "every server to leave the node");
  }, 200_000);
});
