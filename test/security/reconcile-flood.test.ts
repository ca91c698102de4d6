// The reconcile (server/services/servers/reconcile.ts) reads a node's list of servers on every
// heartbeat; a compromised node answers it with whatever it likes. A list of 100,000 made-up ids
// is looked up in a few batched queries (not one query per id, and not one statement past
// SQLite's bound on variables), each logged once while it stays listed; and the ids of servers
// that live on another node, never moved from or to this one, are left alone: the panel neither
// asks the hostile node to remove them nor holds their ids (which would stall every change to
// those servers for as long as the hostile node keeps its answer waiting).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { nodeProof, NODE_PROOF_PATH } from "../../core/node-token";
import { reconcileNode } from "../../server/services/servers";
import { claim, release } from "../../server/services/servers/lifecycle";
import { testPanel, type TestPanel } from "../helpers/app";

const SECRET = "hostile-node-secret-for-reconcile-0123";
let panel: TestPanel;
let hostile: ReturnType<typeof Bun.serve>;
let node: typeof schema.nodes.$inferSelect;
let otherNodeId = 0;
let listed: string[] = [];
const deletes: string[] = [];
/** While set, a DELETE is answered only when it resolves: the hostile node keeps the panel waiting. */
let holdDeletes: Promise<void> | null = null;

beforeAll(async () => {
  panel = await testPanel();
  hostile = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === NODE_PROOF_PATH) return Response.json({ proof: nodeProof(SECRET, Number(url.searchParams.get("node")), url.searchParams.get("challenge") ?? "") });
      if (request.method === "GET" && url.pathname === "/daemon/server") return Response.json({ servers: listed });
      if (request.method === "DELETE") {
        deletes.push(url.pathname.split("/").pop()!);
        if (holdDeletes) await holdDeletes;
        return new Response(null, { status: 204 });
      }
      return new Response("not here", { status: 404 });
    },
  });
  const row = (name: string, port: number) => ({ name, publicHost: "127.0.0.1", publicPort: port, privateHost: "127.0.0.1", privatePort: port, sftpPort: 5657, secret: SECRET, createdAt: new Date() });
  node = await panel.db.insert(schema.nodes).values(row("hostile", hostile.port!)).returning().get();
  otherNodeId = (await panel.db.insert(schema.nodes).values(row("honest", 1)).returning().get()).id;
});
afterAll(() => hostile.stop(true));

async function reconcile(): Promise<string[]> {
  const lines: string[] = [];
  await reconcileNode(panel.db, node, (line) => lines.push(line));
  return lines;
}

const madeUp = (n: number) => Array.from({ length: n }, () => randomBytes(12).toString("hex"));

test("a list of 100,000 made-up ids: reconciled in a few seconds, each logged once while listed", async () => {
  listed = madeUp(100_000);
  const started = Date.now();
  const lines = await reconcile();
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(lines.length).toBe(100_000);
  expect(lines[0]).toContain("which this panel does not know; left in place");
  // Listed again: nothing new to say.
  expect(await reconcile()).toEqual([]);
  // Another list: the new ids are said, and what the panel remembers is that list only.
  const first = listed.slice(0, 3);
  listed = madeUp(100_000);
  expect((await reconcile()).length).toBe(100_000);
  listed = first;
  expect((await reconcile()).length).toBe(3);
  expect(deletes).toEqual([]);
});

test("ids of servers on another node, never moved via this one: not removed, not held, logged", async () => {
  const ids = ["0ther0001", "0ther0002"];
  for (const id of ids) await panel.db.insert(schema.servers).values({ id, name: `lives on honest ${id}`, nodeId: otherNodeId, createdAt: new Date() }).run();
  listed = ids;
  let release_: () => void = () => undefined;
  holdDeletes = new Promise((resolve) => (release_ = resolve));
  const round = reconcile();
  await Bun.sleep(300);
  // A change to those servers (which claims their ids) is not kept waiting by the hostile node.
  for (const id of ids) {
    expect(await claim(panel.db, id)).toBe(true);
    await release(panel.db, id);
  }
  release_();
  holdDeletes = null;
  const lines = await round;
  expect(deletes).toEqual([]);
  expect(lines).toEqual(ids.map((id) => `kiln: node hostile holds server ${id}, which is on another node and was never moved from or to this one; left in place`));
  for (const id of ids) expect((await panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())?.nodeId).toBe(otherNodeId);
});

test("a copy a move from this node left behind is still removed", async () => {
  await panel.db.insert(schema.servers).values({ id: "m0ved001", name: "moved away", nodeId: otherNodeId, createdAt: new Date() }).run();
  await panel.db.insert(schema.transfers).values({ id: "t-1", serverId: "m0ved001", fromNodeId: node.id, toNodeId: otherNodeId, state: "done", keepRunning: false, allocationPolicy: "keep", by: "admin", startedAt: Date.now(), finishedAt: Date.now() }).run();
  listed = ["m0ved001"];
  const lines = await reconcile();
  expect(deletes).toEqual(["m0ved001"]);
  expect(lines).toEqual(["kiln: removed the copy of server m0ved001 a move left on node hostile"]);
});
