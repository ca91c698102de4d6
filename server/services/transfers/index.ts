// Moving a server to another node (administrators): started here, run in the background
// (./run), watched through the row (GET), cancelled through an abort (DELETE). One transfer of a
// server at a time; one the panel was running when it stopped is marked failed at its next start
// (its target copy removed), since no one is left to finish it.
import { and, desc, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { isLive, THIS_PANEL } from "../cluster/instance";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { SessionUser } from "../sessions";
import { authorize } from "../servers";
import { getNodeRow } from "../nodes";
import { recordEvent } from "../activity/record";
import { claimWithin, release, removeFromNode } from "../servers/lifecycle";
import { revokeOffer, runTransfer } from "./run";
import { TRANSFER_ACTIVE_STATES, type TransferView } from "../../../core/transfer/view";

export type { TransferView };

const ACTIVE = TRANSFER_ACTIVE_STATES;
const running = new Map<string, AbortController>();


export async function startTransfer(db: Db, user: SessionUser, serverId: string, body: Record<string, unknown>): Promise<TransferView> {
  await authorize(db, user, serverId, "admin");
  const server = (await db.select().from(schema.servers).where(eq(schema.servers.id, serverId)).get())!;
  if (!Number.isInteger(body.node)) throw new KilnError("ErrFieldRequired", { field: "node" });
  const target = await getNodeRow(db, body.node as number);
  if (target.id === server.nodeId) throw new KilnError("ErrFieldNotBetween", { field: "node" }, "the server is on that node already");
  if (target.draining) throw new KilnError("ErrNoNodeFits", { short: "draining", nodes: 1 });
  const policy = body.allocationPolicy ?? "keep";
  if (policy !== "keep" && policy !== "new") throw new KilnError("ErrFieldNotBetween", { field: "allocationPolicy" });
  if (body.keepRunning !== undefined && typeof body.keepRunning !== "boolean") throw new KilnError("ErrFieldNotBetween", { field: "keepRunning" });
  // The row first: from then on a change of the server's allocations is refused rather than
  // queued (server-allocations), so the claim below is not starved by a stream of them.
  const row = await db.transaction(async (tx) => {
    if (await activeTransfer(tx, serverId)) throw new KilnError("ErrTransferInProgress");
    return await tx.insert(schema.transfers).values({ id: randomBytes(8).toString("hex"), serverId, fromNodeId: server.nodeId, toNodeId: target.id, state: "copying", keepRunning: body.keepRunning === true, allocationPolicy: policy, by: user.username, runner: THIS_PANEL, startedAt: Date.now() }).returning().get();
  });
  const abort = new AbortController();
  running.set(row.id, abort);
  // Held for the whole move: a deletion, a reconcile that finds the server on two nodes, or a change
  // of its allocations, waits. One of those under way now is waited for a little.
  if (!(await claimWithin(db, serverId))) {
    running.delete(row.id);
    await db.delete(schema.transfers).where(eq(schema.transfers.id, row.id)).run();
    throw new KilnError("ErrTransferInProgress");
  }
  // Read again now that the server is held: a move that finished between the first read and the
  // claim put it on another node, and this one would copy from the node it left.
  const now = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, serverId)).get();
  if (now?.nodeId !== server.nodeId) {
    running.delete(row.id);
    await db.delete(schema.transfers).where(eq(schema.transfers.id, row.id)).run();
    await release(db, serverId);
    throw new KilnError("ErrTransferInProgress");
  }
  await recordEvent(db, "server.transfer.started", { serverId, properties: { from: (await getNodeRow(db, server.nodeId)).name, to: target.name, keepRunning: row.keepRunning } });
  void runTransfer(db, row, abort.signal).finally(() => {
    void release(db, serverId);
    running.delete(row.id);
  });
  return await view(db, row);
}

/** The server's transfer under way, if any. */
export async function activeTransfer(db: Db, serverId: string): Promise<typeof schema.transfers.$inferSelect | undefined> {
  return await db.select().from(schema.transfers).where(and(eq(schema.transfers.serverId, serverId), inArray(schema.transfers.state, [...ACTIVE]))).get();
}

/** The server's latest transfer, or null. */
export async function latestTransfer(db: Db, user: SessionUser, serverId: string): Promise<TransferView | null> {
  await authorize(db, user, serverId, "admin");
  const row = await db.select().from(schema.transfers).where(eq(schema.transfers.serverId, serverId)).orderBy(desc(schema.transfers.startedAt)).limit(1).get();
  return row ? await view(db, row) : null;
}

export async function cancelTransfer(db: Db, user: SessionUser, serverId: string): Promise<void> {
  await authorize(db, user, serverId, "admin");
  const row = await activeTransfer(db, serverId);
  if (!row) throw new KilnError("ErrNotFound", { field: "transfer" });
  // Once switched (starting), the server lives on the target: there is nothing to cancel.
  if (row.state === "starting") throw new KilnError("ErrTransferInProgress");
  running.get(row.id)?.abort();
}

/** Transfers under way on either of a node's sides (its page shows them). */
export async function nodeTransfers(db: Db, nodeId: number): Promise<(TransferView & { serverId: string; serverName: string })[]> {
  const rows = await db.select({ transfer: schema.transfers, serverName: schema.servers.name }).from(schema.transfers).innerJoin(schema.servers, eq(schema.servers.id, schema.transfers.serverId)).where(inArray(schema.transfers.state, [...ACTIVE])).all();
  const mine = rows.filter(({ transfer: r }) => r.fromNodeId === nodeId || r.toNodeId === nodeId);
  return Promise.all(mine.map(async ({ transfer, serverName }) => ({ ...(await view(db, transfer)), serverId: transfer.serverId, serverName })));
}

/**
 * Transfers a stopped panel process left under way cannot finish; their target copies go. A
 * transfer is another live panel's to finish (several panels on one database).
 */
export async function failStaleTransfers(db: Db): Promise<void> {
  const active = await db.select().from(schema.transfers).where(inArray(schema.transfers.state, [...ACTIVE])).all();
  for (const row of active) {
    if (running.has(row.id)) continue;
    if (row.runner && row.runner !== THIS_PANEL && (await isLive(db, row.runner))) continue;
    const switched = (await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, row.serverId)).get())?.nodeId === row.toNodeId;
    // The source's ticket would open the folder for a day more: whoever holds it (the target, its logs) no longer may.
    await revokeOffer(await getNodeRow(db, row.fromNodeId).catch(() => null), row.serverId);
    if (!switched) await removeFromNode(await getNodeRow(db, row.toNodeId), row.serverId).catch(() => undefined);
    await db.update(schema.transfers).set(switched ? { state: "done", finishedAt: Date.now() } : { state: "failed", error: "ErrTransferFailed", finishedAt: Date.now() }).where(eq(schema.transfers.id, row.id)).run();
  }
}

async function view(db: Db, row: typeof schema.transfers.$inferSelect): Promise<TransferView> {
  const name = async (id: number) => (await db.select({ name: schema.nodes.name }).from(schema.nodes).where(eq(schema.nodes.id, id)).get())?.name ?? String(id);
  const left = row.totalBytes - row.bytes;
  return {
    id: row.id,
    state: row.state,
    from: await name(row.fromNodeId),
    to: await name(row.toNodeId),
    keepRunning: row.keepRunning,
    allocationPolicy: row.allocationPolicy,
    bytes: row.bytes,
    totalBytes: row.totalBytes,
    rate: row.rate,
    eta: row.rate > 0 && left > 0 ? Math.ceil(left / row.rate) : null,
    error: row.error,
    skipped: row.skipped ?? null,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
