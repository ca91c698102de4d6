// Brings a node and the panel's rows back into one-to-one agreement after a crash (see
// lifecycle.ts): run for every node that answers, at start and on every heartbeat, so a node that
// was away is reconciled when it comes back. Work a request of this process is doing is skipped.
//
// - A row left "creating" is rolled back (removed on the node if it got there, then the row).
// - A row left "deleting" is finished (removed on the node, then the row).
// - A definition on the node with no row is removed only when this panel issued its id (the
//   ledger); any other is logged once and left in place with its files.
// - A definition whose row is on another node is what a move left behind (the source's copy after
//   the switch, or the target's after a move that failed while the target was away): removed,
//   unless a move of that server is under way (it holds the id).
import { eq, ne, and, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { callOperation } from "../../daemon-client";
import { SERVER_ID_PATTERN } from "../../../core/contract";
import type { NodeRow } from "../nodes";
import { claim, dropServerRow, release, removeFromNode } from "./lifecycle";

type Log = (line: string) => void;

/** More servers than one node could hold: an answer listing more is not a list. */
const MAX_LISTED = 100_000;

/** Foreign definitions already reported, so each is logged once per process, not every heartbeat. */
const reported = new Set<string>();

export async function reconcileNode(db: Db, node: NodeRow, log: Log = console.log): Promise<void> {
  // The node's list is read before the rows: a creation that lands in between has its row already.
  const response = await callOperation(node, "listServers").catch(() => null);
  if (!response?.ok) return;
  const onNode = await serverList(response);
  if (onNode === null) {
    log(`kiln: node ${node.name} answered its server list in a shape the panel does not read; nothing reconciled`);
    return;
  }
  const unfinished = await db.select({ id: schema.servers.id, state: schema.servers.state }).from(schema.servers).where(and(eq(schema.servers.nodeId, node.id), ne(schema.servers.state, "ready"))).all();
  for (const row of unfinished) {
    await withClaim(db, row.id, async () => {
      // Read again now that the id is ours: the request that held it may have finished it.
      if (await currentState(db, row.id) !== row.state) return;
      await removeFromNode(node, row.id);
      await dropServerRow(db, row.id);
      log(`kiln: ${row.state === "creating" ? "rolled back the unfinished creation" : "finished the interrupted deletion"} of server ${row.id} on node ${node.name}`);
    });
  }
  const rows = onNode.length === 0 ? [] : await db.select({ id: schema.servers.id, nodeId: schema.servers.nodeId }).from(schema.servers).where(inArray(schema.servers.id, onNode)).all();
  const known = new Set(rows.map((r) => r.id));
  for (const { id } of rows.filter((r) => r.nodeId !== node.id)) {
    await withClaim(db, id, async () => {
      const now = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, id)).get();
      if (!now || now.nodeId === node.id) return;
      await removeFromNode(node, id);
      log(`kiln: removed the copy of server ${id} a move left on node ${node.name}`);
    });
  }
  for (const id of onNode.filter((id) => !known.has(id))) {
    if (!await issuedHere(db, id)) {
      if (!reported.has(id)) log(`kiln: node ${node.name} holds server ${id}, which this panel does not know; left in place`);
      reported.add(id);
      continue;
    }
    await withClaim(db, id, async () => {
      if (await currentState(db, id) !== undefined) return;
      await removeFromNode(node, id);
      log(`kiln: removed server ${id} from node ${node.name}: its creation had been rolled back`);
    });
  }
}

/** Runs `work` holding the id; a node that stops answering half way is left for the next round. */
async function withClaim(db: Db, id: string, work: () => Promise<void>): Promise<void> {
  if (!(await claim(db, id))) return;
  try {
    await work();
  } catch {
    // the node went away again: the next heartbeat tries once more
  } finally {
    await release(db, id);
  }
}

async function currentState(db: Db, id: string): Promise<string | undefined> {
  return (await db.select({ state: schema.servers.state }).from(schema.servers).where(eq(schema.servers.id, id)).get())?.state;
}

async function issuedHere(db: Db, id: string): Promise<boolean> {
  return await db.select({ id: schema.issuedServerIds.id }).from(schema.issuedServerIds).where(eq(schema.issuedServerIds.id, id)).get() !== undefined;
}

/** The ids a node lists, or null for an answer of another shape: a node's answer is read as a stranger's. */
async function serverList(response: Response): Promise<string[] | null> {
  const body = (await response.json().catch(() => null)) as { servers?: unknown } | null;
  const servers = body?.servers;
  if (!Array.isArray(servers) || servers.length > MAX_LISTED || !servers.every((id) => typeof id === "string" && SERVER_ID_PATTERN.test(id))) return null;
  return servers as string[];
}
