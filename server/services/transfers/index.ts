// Moving a server to another node (administrators): started here, run in the background
// (./run), watched through the row (GET), cancelled through an abort (DELETE). One transfer of a
// server at a time; one the panel was running when it stopped is marked failed at its next start
// (its target copy removed), since no one is left to finish it.
import { and, desc, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { SessionUser } from "../sessions";
import { authorize } from "../servers";
import { getNodeRow } from "../nodes";
import { recordEvent } from "../activity/record";
import { claim, release, removeFromNode } from "../servers/lifecycle";
import { runTransfer } from "./run";
import { TRANSFER_ACTIVE_STATES, type TransferView } from "../../../core/transfer/view";

export type { TransferView };

const ACTIVE = TRANSFER_ACTIVE_STATES;
const running = new Map<string, AbortController>();


export function startTransfer(db: Db, user: SessionUser, serverId: string, body: Record<string, unknown>): TransferView {
  authorize(db, user, serverId, "admin");
  const server = db.select().from(schema.servers).where(eq(schema.servers.id, serverId)).get()!;
  if (!Number.isInteger(body.node)) throw new KilnError("ErrFieldRequired", { field: "node" });
  const target = getNodeRow(db, body.node as number);
  if (target.id === server.nodeId) throw new KilnError("ErrFieldNotBetween", { field: "node" }, "the server is on that node already");
  if (target.draining) throw new KilnError("ErrNoNodeFits", { short: "draining", nodes: 1 });
  const policy = body.allocationPolicy ?? "keep";
  if (policy !== "keep" && policy !== "new") throw new KilnError("ErrFieldNotBetween", { field: "allocationPolicy" });
  if (body.keepRunning !== undefined && typeof body.keepRunning !== "boolean") throw new KilnError("ErrFieldNotBetween", { field: "keepRunning" });
  // Held for the whole move: a deletion, or a reconcile that finds the server on two nodes, waits.
  if (!claim(serverId)) throw new KilnError("ErrTransferInProgress");
  let row: typeof schema.transfers.$inferSelect;
  try {
    row = db.transaction((tx) => {
      if (tx.select({ id: schema.transfers.id }).from(schema.transfers).where(and(eq(schema.transfers.serverId, serverId), inArray(schema.transfers.state, [...ACTIVE]))).get()) throw new KilnError("ErrTransferInProgress");
      return tx.insert(schema.transfers).values({ id: randomBytes(8).toString("hex"), serverId, fromNodeId: server.nodeId, toNodeId: target.id, state: "copying", keepRunning: body.keepRunning === true, allocationPolicy: policy, by: user.username, startedAt: Date.now() }).returning().get();
    });
  } catch (error) {
    release(serverId);
    throw error;
  }
  recordEvent(db, "server.transfer.started", { serverId, properties: { from: getNodeRow(db, server.nodeId).name, to: target.name, keepRunning: row.keepRunning } });
  const abort = new AbortController();
  running.set(row.id, abort);
  void runTransfer(db, row, abort.signal).finally(() => {
    release(serverId);
    running.delete(row.id);
  });
  return view(db, row);
}

/** The server's latest transfer, or null. */
export function latestTransfer(db: Db, user: SessionUser, serverId: string): TransferView | null {
  authorize(db, user, serverId, "admin");
  const row = db.select().from(schema.transfers).where(eq(schema.transfers.serverId, serverId)).orderBy(desc(schema.transfers.startedAt)).limit(1).get();
  return row ? view(db, row) : null;
}

export function cancelTransfer(db: Db, user: SessionUser, serverId: string): void {
  authorize(db, user, serverId, "admin");
  const row = db.select().from(schema.transfers).where(and(eq(schema.transfers.serverId, serverId), inArray(schema.transfers.state, [...ACTIVE]))).get();
  if (!row) throw new KilnError("ErrNotFound", { field: "transfer" });
  // Once switched (starting), the server lives on the target: there is nothing to cancel.
  if (row.state === "starting") throw new KilnError("ErrTransferInProgress");
  running.get(row.id)?.abort();
}

/** Transfers under way on either of a node's sides (its page shows them). */
export function nodeTransfers(db: Db, nodeId: number): (TransferView & { serverId: string; serverName: string })[] {
  const rows = db.select({ transfer: schema.transfers, serverName: schema.servers.name }).from(schema.transfers).innerJoin(schema.servers, eq(schema.servers.id, schema.transfers.serverId)).where(inArray(schema.transfers.state, [...ACTIVE])).all();
  return rows.filter(({ transfer: r }) => r.fromNodeId === nodeId || r.toNodeId === nodeId).map(({ transfer, serverName }) => ({ ...view(db, transfer), serverId: transfer.serverId, serverName }));
}

/** At start: transfers a stopped panel left under way cannot finish; their target copies go. */
export async function failStaleTransfers(db: Db): Promise<void> {
  const stale = db.select().from(schema.transfers).where(inArray(schema.transfers.state, [...ACTIVE])).all().filter((r) => !running.has(r.id));
  for (const row of stale) {
    const switched = db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, row.serverId)).get()?.nodeId === row.toNodeId;
    if (!switched) await removeFromNode(getNodeRow(db, row.toNodeId), row.serverId).catch(() => undefined);
    db.update(schema.transfers).set(switched ? { state: "done", finishedAt: Date.now() } : { state: "failed", error: "ErrTransferFailed", finishedAt: Date.now() }).where(eq(schema.transfers.id, row.id)).run();
  }
}

function view(db: Db, row: typeof schema.transfers.$inferSelect): TransferView {
  const name = (id: number) => db.select({ name: schema.nodes.name }).from(schema.nodes).where(eq(schema.nodes.id, id)).get()?.name ?? String(id);
  const left = row.totalBytes - row.bytes;
  return {
    id: row.id,
    state: row.state,
    from: name(row.fromNodeId),
    to: name(row.toNodeId),
    keepRunning: row.keepRunning,
    allocationPolicy: row.allocationPolicy,
    bytes: row.bytes,
    totalBytes: row.totalBytes,
    rate: row.rate,
    eta: row.rate > 0 && left > 0 ? Math.ceil(left / row.rate) : null,
    error: row.error,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
