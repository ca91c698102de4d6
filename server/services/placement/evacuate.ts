// Emptying a draining node: every server on it is moved to the node placement chooses for it (never
// back to this one), two at a time, each kept running while its files copy (down for its final
// sync only). A server no node can take, or whose move fails, stays where it is and the answer says
// why; the rest go on. One evacuation per node at a time; its progress lives in memory (a restarted
// panel's moves are marked failed by the transfers service, and evacuating again picks up the rest).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { SessionUser } from "../sessions";
import { getNodeRow } from "../nodes";
import { heldBy } from "../allocations/binding";
import { startTransfer } from "../transfers";
import { chooseNode } from "./index";

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
const evacuations = new WeakMap<Db, Map<number, EvacuationView>>();

function of(db: Db): Map<number, EvacuationView> {
  let map = evacuations.get(db);
  if (!map) evacuations.set(db, (map = new Map()));
  return map;
}

export async function evacuation(db: Db, nodeId: number): Promise<EvacuationView | null> {
  await getNodeRow(db, nodeId);
  return of(db).get(nodeId) ?? null;
}

export async function evacuateNode(db: Db, user: SessionUser, nodeId: number): Promise<EvacuationView> {
  const node = await getNodeRow(db, nodeId);
  if (!node.draining) throw new KilnError("ErrNodeNotDraining", { node: node.name });
  if (of(db).get(nodeId)?.state === "running") throw new KilnError("ErrTransferInProgress");
  const servers = await db.select({ id: schema.servers.id, name: schema.servers.name }).from(schema.servers).where(and(eq(schema.servers.nodeId, nodeId), eq(schema.servers.state, "ready"))).orderBy(schema.servers.name).all();
  const view: EvacuationView = { state: "running", servers: servers.map((s) => ({ serverId: s.id, name: s.name, to: null, state: "waiting", error: null })) };
  of(db).set(nodeId, view);
  void (async () => {
    const queue = [...view.servers];
    const worker = async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) await moveOne(db, user, nodeId, entry);
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    view.state = "done";
  })();
  return view;
}

async function moveOne(db: Db, user: SessionUser, nodeId: number, entry: EvacuationEntry): Promise<void> {
  entry.state = "moving";
  try {
    const row = await db.select({ memoryMiB: schema.servers.memoryMiB }).from(schema.servers).where(eq(schema.servers.id, entry.serverId)).get();
    if (!row) throw new KilnError("ErrNotFound", { id: entry.serverId });
    const { node } = await chooseNode(db, { memoryMiB: row.memoryMiB ?? undefined, ports: Math.max(1, (await heldBy(db, entry.serverId)).length) }, [], nodeId);
    entry.to = node.name;
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
}
