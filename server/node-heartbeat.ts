// Asks every node whether it is there, now and every HEARTBEAT_MS; a node that answers is
// marked seen, which is what "online" means in the node list, its isolation is remembered for
// its page (node-isolation), its version and OS for the node list (node-report), and it is reconciled with the panel's
// rows (services/servers/reconcile): so at start, and whenever a node that was away comes back,
// what a crash left half done is finished. Then the savers of tasks saved before the panel
// recorded them are taken from it, once per server that existed at that upgrade
// (services/tasks/saver-backfill), and so are the bounds of servers made before the panel kept
// its own copy of them (services/servers/bounds).
import { eq } from "drizzle-orm";
import type { Db } from "../db";
import { schema } from "../db";
import { markSeen } from "./services/nodes";
import { reconcileNode } from "./services/servers";
import { backfillTaskSavers } from "./services/tasks/saver-backfill";
import { recordEarlierBounds } from "./services/servers/bounds";
import { nodeStatus } from "./daemon-client";
import { keptStatus } from "./node-memory";

export const HEARTBEAT_MS = 30_000;

type NodeRow = typeof schema.nodes.$inferSelect;

/**
 * Nodes whose check is under way. A node's check is never doubled: a round that finds one still
 * running (a slow node's reconcile, a check a node's creation asked for) skips that node, so a
 * slow or hostile node never piles up rounds, and no request makes the panel ask every node.
 */
const checking = new Set<number>();

/** `reconcile`: whether this process is the one that reconciles (several panels: the lease holder's job). */
export async function checkNodes(db: Db, reconcile: () => boolean = () => true): Promise<void> {
  const nodes = await db.select().from(schema.nodes).all();
  await Promise.all(nodes.map((node) => checkOne(db, node, reconcile)));
}

/** Asks one node now (a node just added: its status is right on the next screen); nothing when it is gone. */
export async function checkNode(db: Db, nodeId: number): Promise<void> {
  const node = await db.select().from(schema.nodes).where(eq(schema.nodes.id, nodeId)).get();
  if (node) await checkOne(db, node, () => true);
}

async function checkOne(db: Db, node: NodeRow, reconcile: () => boolean): Promise<void> {
  if (checking.has(node.id)) return;
  checking.add(node.id);
  try {
    const status = await nodeStatus(node);
    if (!status) return;
    await markSeen(db, node.id, keptStatus(status));
    if (!reconcile()) return;
    await reconcileNode(db, node).catch((error: Error) => console.error(`kiln: reconciling node ${node.name} failed: ${error.message}`));
    await backfillTaskSavers(db, node).catch((error: Error) => console.error(`kiln: recording the savers of node ${node.name}'s earlier tasks failed: ${error.message}`));
    await recordEarlierBounds(db, node).catch((error: Error) => console.error(`kiln: recording the bounds of node ${node.name}'s earlier servers failed: ${error.message}`));
  } finally {
    checking.delete(node.id);
  }
}

export function startHeartbeat(db: Db, intervalMs = HEARTBEAT_MS, reconcile: () => boolean = () => true): () => void {
  void checkNodes(db, reconcile);
  const timer = setInterval(() => void checkNodes(db, reconcile), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
