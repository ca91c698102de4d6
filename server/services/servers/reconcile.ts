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
//   unless a move of that server is under way (it holds the id). Only a server a move between
//   this node and another is on record for is taken so: a node listing the ids of other nodes'
//   servers (compromised, or not ours) never makes the panel hold those servers' ids.
//
// A node's list is read as a stranger's: its ids are looked up a batch at a time (a list of
// 100,000 is a few queries, not 100,000), and what is logged once is remembered per node for
// its last list only, so no answer grows the panel's memory round after round.
import { eq, ne, and, inArray, or } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { callOperation } from "../../daemon-client";
import { SERVER_ID_PATTERN } from "../../../core/contract";
import type { NodeRow } from "../nodes";
import { claim, dropServerRow, release, removeFromNode } from "./lifecycle";

type Log = (line: string) => void;

/** More servers than one node could hold: an answer listing more is not a list. */
const MAX_LISTED = 100_000;

/** Ids per query: well under SQLite's bound on a statement's variables. */
const BATCH = 500;

/** Per node, the foreign definitions its last list held: each is logged when it appears, not every heartbeat. */
const reported = new Map<number, Set<string>>();

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
  const rows = await inBatches(onNode, (ids) => db.select({ id: schema.servers.id, nodeId: schema.servers.nodeId }).from(schema.servers).where(inArray(schema.servers.id, ids)).all());
  const known = new Set(rows.map((r) => r.id));
  const elsewhere = rows.filter((r) => r.nodeId !== node.id).map((r) => r.id);
  const moved = new Set(await movedVia(db, node.id, elsewhere));
  const foreign = new Set<string>();
  for (const id of elsewhere.filter((id) => !moved.has(id))) foreign.add(id);
  for (const id of moved) {
    await withClaim(db, id, async () => {
      const now = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, id)).get();
      if (!now || now.nodeId === node.id) return;
      await removeFromNode(node, id);
      log(`kiln: removed the copy of server ${id} a move left on node ${node.name}`);
    });
  }
  const unknown = onNode.filter((id) => !known.has(id));
  const issued = new Set(await inBatches(unknown, async (ids) => (await db.select({ id: schema.issuedServerIds.id }).from(schema.issuedServerIds).where(inArray(schema.issuedServerIds.id, ids)).all()).map((r) => r.id)));
  for (const id of unknown) if (!issued.has(id)) foreign.add(id);
  const before = reported.get(node.id);
  for (const id of foreign) {
    if (before?.has(id)) continue;
    log(known.has(id) ? `kiln: node ${node.name} holds server ${id}, which is on another node and was never moved from or to this one; left in place` : `kiln: node ${node.name} holds server ${id}, which this panel does not know; left in place`);
  }
  reported.set(node.id, foreign);
  for (const id of issued) {
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

/** Of `ids` (servers whose rows are on other nodes), those a move from or to `nodeId` is on record for. */
async function movedVia(db: Db, nodeId: number, ids: string[]): Promise<string[]> {
  const moves = await inBatches(ids, (batch) =>
    db.select({ id: schema.transfers.serverId }).from(schema.transfers).where(and(inArray(schema.transfers.serverId, batch), or(eq(schema.transfers.fromNodeId, nodeId), eq(schema.transfers.toNodeId, nodeId)))).all(),
  );
  return [...new Set(moves.map((m) => m.id))];
}

/** `query` run over `ids` a batch at a time, its rows together. */
async function inBatches<T>(ids: string[], query: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += BATCH) out.push(...(await query(ids.slice(i, i + BATCH))));
  return out;
}

/** The ids a node lists, or null for an answer of another shape: a node's answer is read as a stranger's. */
async function serverList(response: Response): Promise<string[] | null> {
  const body = (await response.json().catch(() => null)) as { servers?: unknown } | null;
  const servers = body?.servers;
  if (!Array.isArray(servers) || servers.length > MAX_LISTED || !servers.every((id) => typeof id === "string" && SERVER_ID_PATTERN.test(id))) return null;
  return servers as string[];
}
