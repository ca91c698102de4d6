// Emptying a draining node: every server on it is moved to the node placement chooses for it (never
// back to this one), two at a time, each kept running while its files copy (down for its final
// sync only). A server no node can take, or whose move fails, stays where it is and the answer says
// why; the rest go on. One evacuation per node at a time, across panel processes: the one running
// it holds a lease (`evacuation:<node>`), and its progress is kept in the database
// (`one_time_values`, kind `evacuation`, a day), so every panel's node page and API show it. A
// panel that stops mid-way loses the lease: its list then shows what had not finished as failed
// (the transfers service marks its moves failed), and evacuating again picks up the rest.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { SessionUser } from "../sessions";
import { getNodeRow } from "../nodes";
import { heldBy } from "../allocations/binding";
import { startTransfer } from "../transfers";
import { chooseNode } from "./index";
import { putValue, readValue } from "../cluster/one-time-values";
import { LEASE_MS, leaseHolder, releaseLease, RENEW_MS, takeLease } from "../cluster/leases";
import { THIS_PANEL } from "../cluster/instance";

export interface EvacuationEntry {
  serverId: string;
  name: string;
  to: string | null;
  state: "waiting" | "moving" | "done" | "failed";
  error: string | null;
}

export interface EvacuationView {
  state: "running" | "done";
  servers: EvacuationEntry[];
}

const AT_ONCE = 2;
const POLL_MS = 1000;
const KIND = "evacuation";
/** How long an evacuation's list is shown after it was last written. */
const KEPT_MS = 24 * 60 * 60 * 1000;
/** Nodes this process is evacuating, per database (taken before any await: two requests at once start one). */
const evacuating = new WeakMap<Db, Set<number>>();
const runningIn = (db: Db): Set<number> => {
  const nodes = evacuating.get(db) ?? new Set<number>();
  evacuating.set(db, nodes);
  return nodes;
};

const leaseOf = (nodeId: number) => `evacuation:${nodeId}`;
const save = (db: Db, nodeId: number, view: EvacuationView) => putValue(db, KIND, String(nodeId), JSON.stringify(view), Date.now() + KEPT_MS);

export async function evacuation(db: Db, nodeId: number): Promise<EvacuationView | null> {
  await getNodeRow(db, nodeId);
  const stored = await readValue(db, KIND, String(nodeId));
  if (stored === undefined) return null;
  const view = JSON.parse(stored) as EvacuationView;
  if (view.state !== "running" || runningIn(db).has(nodeId) || (await leaseHolder(db, leaseOf(nodeId))) !== undefined) return view;
  // Its panel stopped before the end: what had not finished did not (the transfers service says so for its moves).
  const ended = (entry: EvacuationEntry): EvacuationEntry => (entry.state === "waiting" || entry.state === "moving" ? { ...entry, state: "failed", error: "ErrTransferFailed" } : entry);
  return { state: "done", servers: view.servers.map(ended) };
}

export async function evacuateNode(db: Db, user: SessionUser, nodeId: number): Promise<EvacuationView> {
  const node = await getNodeRow(db, nodeId);
  if (!node.draining) throw new KilnError("ErrNodeNotDraining", { node: node.name });
  const running = runningIn(db);
  if (running.has(nodeId)) throw new KilnError("ErrTransferInProgress");
  running.add(nodeId);
  try {
    if (!(await takeLease(db, leaseOf(nodeId), THIS_PANEL))) throw new KilnError("ErrTransferInProgress");
  } catch (error) {
    running.delete(nodeId);
    throw error;
  }
  // The lease is this evacuation's only while it is renewed: a panel that stalled past LEASE_MS
  // (a long pause, a database that did not answer) may find another panel evacuating the node
  // again, and then starts no move and writes no list of its own any more. Each move also renews
  // it before it starts, so none starts after a takeover the background renewal has not seen yet.
  let renewedAt = Date.now();
  let lost = false;
  const renew = async (): Promise<boolean> => {
    if (lost) return false;
    try {
      if (await takeLease(db, leaseOf(nodeId), THIS_PANEL)) renewedAt = Date.now();
      else lost = true;
    } catch {
      // The database did not answer: held as long as the last renewal lasts.
    }
    return !lost && Date.now() - renewedAt < LEASE_MS;
  };
  const holds = () => !lost && Date.now() - renewedAt < LEASE_MS;
  const renewal = setInterval(() => void renew(), RENEW_MS);
  renewal.unref();
  const finish = async () => {
    clearInterval(renewal);
    running.delete(nodeId);
    await releaseLease(db, leaseOf(nodeId), THIS_PANEL).catch(() => undefined);
  };
  let view: EvacuationView;
  try {
    const servers = await db.select({ id: schema.servers.id, name: schema.servers.name }).from(schema.servers).where(and(eq(schema.servers.nodeId, nodeId), eq(schema.servers.state, "ready"))).orderBy(schema.servers.name).all();
    view = { state: "running", servers: servers.map((s) => ({ serverId: s.id, name: s.name, to: null, state: "waiting", error: null })) };
    await save(db, nodeId, view);
  } catch (error) {
    await finish();
    throw error;
  }
  // Each change of an entry is written for the other panels, one write after another (each writes
  // the list as it is then, so none lands over a newer one); a write that fails is made good by the next.
  let writing = Promise.resolve();
  const changed = () => {
    if (holds()) writing = writing.then(() => save(db, nodeId, view)).catch(() => undefined);
  };
  void (async () => {
    const queue = [...view.servers];
    const worker = async () => {
      for (let entry = queue.shift(); entry && (await renew()); entry = queue.shift()) await moveOne(db, user, nodeId, entry, changed);
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    view.state = "done";
    changed();
    await writing;
    await finish();
  })();
  return view;
}

async function moveOne(db: Db, user: SessionUser, nodeId: number, entry: EvacuationEntry, changed: () => void): Promise<void> {
  entry.state = "moving";
  changed();
  try {
    const row = await db.select({ memoryMiB: schema.servers.memoryMiB }).from(schema.servers).where(eq(schema.servers.id, entry.serverId)).get();
    if (!row) throw new KilnError("ErrNotFound", { id: entry.serverId });
    const { node } = await chooseNode(db, { memoryMiB: row.memoryMiB ?? undefined, ports: Math.max(1, (await heldBy(db, entry.serverId)).length) }, [], nodeId);
    entry.to = node.name;
    changed();
    const started = await startTransfer(db, user, entry.serverId, { node: node.id, allocationPolicy: "keep", keepRunning: true });
    for (;;) {
      await Bun.sleep(POLL_MS);
      const now = await db.select({ state: schema.transfers.state, error: schema.transfers.error }).from(schema.transfers).where(eq(schema.transfers.id, started.id)).get();
      if (!now || now.state === "done") break;
      if (now.state === "failed" || now.state === "cancelled") throw new KilnError((now.error as "ErrTransferFailed" | null) ?? "ErrTransferFailed");
    }
    entry.state = "done";
  } catch (error) {
    entry.state = "failed";
    entry.error = error instanceof KilnError ? error.code : "ErrTransferFailed";
  }
  changed();
}
