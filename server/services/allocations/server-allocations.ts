// A server's own allocations after its creation: listed for anyone who can see the server; taken
// from the node's pool, made primary or given back by administrators and by holders of
// manageAllocations (these up to the extras the server's limit allows). Every change reaches the
// node as the variables it fills (./binding), and the list's address follows the primary.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { SessionUser } from "../sessions";
import { authorize, callServerNode, fetchDefinition } from "../servers";
import { jsonInit } from "../../daemon-client";
import { recordEvent } from "../activity/record";
import { addressParts } from "../servers/definition";
import { replaceDefinition } from "../servers/variables";
import { heldDefinition } from "../servers/bounds";
import { boundValues, heldBy, portsNeeded, withAllocations, type AllocationRow } from "./binding";
import { claimWithin, release } from "../servers/lifecycle";
import { activeTransfer } from "../transfers";

export interface ServerAllocation {
  id: number;
  ip: string;
  port: number;
  alias: string | null;
  primary: boolean;
}

const shown = (row: AllocationRow): ServerAllocation => ({ id: row.id, ip: row.ip, port: row.port, alias: row.alias, primary: row.isPrimary });

export async function serverAllocations(db: Db, user: SessionUser, serverId: string): Promise<ServerAllocation[]> {
  await authorize(db, user, serverId, "view");
  return (await heldBy(db, serverId)).map(shown);
}

/** Takes `{allocationId}` (or the lowest free port) from the server's node for it. */
export async function addServerAllocation(db: Db, user: SessionUser, serverId: string, body: Record<string, unknown>): Promise<ServerAllocation> {
  const access = await authorize(db, user, serverId, "manageAllocations");
  return await exclusive(db, serverId, async () => {
    const server = await serverRow(db, serverId);
    const held = await heldBy(db, serverId);
    // The primary is the server's address, not an extra; the limit counts extras.
    if (!access.admin && held.length >= 1 + server.allocationLimit) throw new KilnError("ErrAllocationLimit", { limit: server.allocationLimit });
    const wanted = body.allocationId;
    if (wanted !== undefined && !(Number.isInteger(wanted) && (wanted as number) > 0)) throw new KilnError("ErrFieldNotBetween", { field: "allocationId" });
    const free = await db.select().from(schema.allocations).where(and(eq(schema.allocations.nodeId, server.nodeId), isNull(schema.allocations.serverId), ...(wanted === undefined ? [] : [eq(schema.allocations.id, wanted as number)]))).orderBy(asc(schema.allocations.port)).limit(1).get();
    if (!free) {
      if (wanted === undefined) throw new KilnError("ErrNoFreeAllocation", { needed: 1, free: 0 });
      const taken = await db.select({ nodeId: schema.allocations.nodeId, port: schema.allocations.port }).from(schema.allocations).where(eq(schema.allocations.id, wanted as number)).get();
      // Another node's allocation is as unknown here as one that does not exist.
      if (!taken || taken.nodeId !== server.nodeId) throw new KilnError("ErrNotFound", { field: "allocationId", id: wanted as number });
      throw new KilnError("ErrAllocationInUse", { port: taken.port });
    }
    const next = [...held, { ...free, serverId, isPrimary: held.length === 0 }];
    await change(db, serverId, held, next, async () => {
      const got = await db.update(schema.allocations).set({ serverId, isPrimary: held.length === 0 }).where(and(eq(schema.allocations.id, free.id), isNull(schema.allocations.serverId))).returning().get();
      if (!got) throw new KilnError("ErrAllocationInUse", { port: free.port });
    });
    return shown(next.at(-1)!);
  });
}

export async function setPrimaryAllocation(db: Db, user: SessionUser, serverId: string, allocationId: number): Promise<void> {
  await authorize(db, user, serverId, "manageAllocations");
  await exclusive(db, serverId, async () => {
    const held = await heldBy(db, serverId);
    const chosen = held.find((a) => a.id === allocationId);
    if (!chosen) throw new KilnError("ErrNotFound", { field: "allocationId", id: allocationId });
    if (chosen.isPrimary) return;
    const next = [{ ...chosen, isPrimary: true }, ...held.filter((a) => a.id !== allocationId).map((a) => ({ ...a, isPrimary: false }))];
    await change(db, serverId, held, next, async () => {
      await db.update(schema.allocations).set({ isPrimary: false }).where(eq(schema.allocations.serverId, serverId)).run();
      await db.update(schema.allocations).set({ isPrimary: true }).where(eq(schema.allocations.id, allocationId)).run();
    });
  });
}

/** Gives an extra back to the pool. The primary stays (another is made primary first); so does one a port variable still needs. */
export async function removeServerAllocation(db: Db, user: SessionUser, serverId: string, allocationId: number): Promise<void> {
  await authorize(db, user, serverId, "manageAllocations");
  await exclusive(db, serverId, async () => {
    const held = await heldBy(db, serverId);
    const gone = held.find((a) => a.id === allocationId);
    if (!gone) throw new KilnError("ErrNotFound", { field: "allocationId", id: allocationId });
    if (gone.isPrimary) throw new KilnError("ErrAllocationPrimary", { port: gone.port });
    const definition = await fetchDefinition(db, serverId);
    if (held.length - 1 < portsNeeded(definition.data)) throw new KilnError("ErrAllocationRequired", { port: gone.port, needed: portsNeeded(definition.data) });
    const next = held.filter((a) => a.id !== allocationId);
    await change(db, serverId, held, next, async () => {
      await db.update(schema.allocations).set({ serverId: null, isPrimary: false }).where(eq(schema.allocations.id, allocationId)).run();
    });
  });
}

/**
 * One server's allocation changes one at a time: each reads the holding, checks it, writes it and
 * has the node take it, and one that fails puts back the holding it read. Two at once both failed,
 * each putting back a holding the other had changed, and the panel then held a port the node did
 * not publish. In this process they queue (inTurn); across panel processes, and against a move,
 * a deletion or a reconcile of the server, each holds the server's claim (../servers/lifecycle).
 * A move holds it for minutes: a change asked meanwhile is refused (ErrTransferInProgress), since
 * the move has read the holding it will carry to the target and rewrites it at its switch.
 */
function exclusive<T>(db: Db, serverId: string, work: () => Promise<T>): Promise<T> {
  return inTurn(serverId, async () => {
    if (await activeTransfer(db, serverId)) throw new KilnError("ErrTransferInProgress");
    // What else holds the claim long is a deletion.
    if (!(await claimWithin(db, serverId))) throw (await activeTransfer(db, serverId)) ? new KilnError("ErrTransferInProgress") : new KilnError("ErrNotFound", { id: serverId }, "no such server");
    try {
      return await work();
    } finally {
      await release(db, serverId);
    }
  });
}

const turns = new Map<string, Promise<unknown>>();
function inTurn<T>(serverId: string, work: () => Promise<T>): Promise<T> {
  const run = (turns.get(serverId) ?? Promise.resolve()).then(work);
  const settled = run.catch(() => undefined);
  turns.set(serverId, settled);
  void settled.then(() => {
    if (turns.get(serverId) === settled) turns.delete(serverId);
  });
  return run;
}

/**
 * Writes the new holding, then has the node take the variables it stands for; a node that refuses
 * or does not answer puts the holding back as it was (nothing half-done: the rows and the node
 * agree before and after).
 */
async function change(db: Db, serverId: string, before: AllocationRow[], after: AllocationRow[], write: () => Promise<void>): Promise<void> {
  await db.transaction(async () => await write());
  try {
    const definition = await heldDefinition(db, serverId);
    const next = withAllocations(definition, after);
    // Extra ports live in the definition itself; variables alone go through setData (the node checks them again).
    if (JSON.stringify(next.extraPorts ?? []) !== JSON.stringify(definition.extraPorts ?? [])) await replaceDefinition(db, serverId, next);
    else {
      const values = boundValues(definition.data, after);
      if (Object.keys(values).length > 0) await callServerNode(db, serverId, "setData", {}, jsonInit({ data: values }));
    }
    await recordServerAddress(db, serverId, next, after[0]?.alias ?? null);
  } catch (error) {
    await db.transaction(async (tx) => {
      await tx.update(schema.allocations).set({ serverId: null, isPrimary: false }).where(eq(schema.allocations.serverId, serverId)).run();
      for (const row of before) await tx.update(schema.allocations).set({ serverId, isPrimary: row.isPrimary }).where(eq(schema.allocations.id, row.id)).run();
    });
    throw error;
  }
  const text = (rows: AllocationRow[]) => rows.map((a) => `${a.ip}:${a.port}`);
  await recordEvent(db, "server.allocations.changed", { serverId, properties: { old: text(before), new: text(after) } });
}

/** The list's address parts: ip and port from the variables, the alias from the primary. */
export async function recordServerAddress(db: Db, serverId: string, definition: Parameters<typeof addressParts>[0], alias: string | null): Promise<void> {
  await db.update(schema.servers).set({ ...addressParts(definition), alias }).where(eq(schema.servers.id, serverId)).run();
}

/** The server's row; its existence was checked by authorize. */
async function serverRow(db: Db, serverId: string): Promise<typeof schema.servers.$inferSelect> {
  return (await db.select().from(schema.servers).where(eq(schema.servers.id, serverId)).get())!;
}

/** How many extras holders of manageAllocations may take for the server (administrators only). */
export async function setAllocationLimit(db: Db, user: SessionUser, serverId: string, limit: unknown): Promise<number> {
  const access = await authorize(db, user, serverId, "admin");
  if (!access.admin || !Number.isInteger(limit) || (limit as number) < 0 || (limit as number) > 100) throw new KilnError("ErrFieldNotBetween", { field: "limit", min: 0, max: 100 });
  await db.update(schema.servers).set({ allocationLimit: limit as number }).where(eq(schema.servers.id, serverId)).run();
  return limit as number;
}

/** The server's limit of extras, for its Network tab. */
export async function allocationLimitOf(db: Db, serverId: string): Promise<number> {
  return (await db.select({ limit: schema.servers.allocationLimit }).from(schema.servers).where(eq(schema.servers.id, serverId)).get())?.limit ?? 0;
}
