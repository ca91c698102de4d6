// A node's pool of allocations, as administrators keep it: add an address with a port, a range or
// a list (and an alias players type), list them with who holds each, remove a free one. Two
// allocations of a node may not share a port where either listens on every address (0.0.0.0),
// since both could not be bound.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { isIP } from "node:net";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { parsePorts } from "../../../core/allocations/ports";
import { getNodeRow } from "../nodes";
import { recordEvent } from "../activity/record";
import type { SessionUser } from "../sessions";
import { serverAccesses } from "../servers/permissions";

export const EVERY_ADDRESS = "0.0.0.0";

export interface AllocationView {
  id: number;
  nodeId: number;
  ip: string;
  port: number;
  alias: string | null;
  serverId: string | null;
  primary: boolean;
}

type Row = typeof schema.allocations.$inferSelect;

export const allocationView = (row: Row): AllocationView => ({ id: row.id, nodeId: row.nodeId, ip: row.ip, port: row.port, alias: row.alias, serverId: row.serverId, primary: row.isPrimary });

export async function listPool(db: Db, nodeId: number): Promise<AllocationView[]> {
  await getNodeRow(db, nodeId);
  return (await db.select().from(schema.allocations).where(eq(schema.allocations.nodeId, nodeId)).orderBy(asc(schema.allocations.ip), asc(schema.allocations.port)).all()).map(allocationView);
}

/** The servers holding ports of the node's pool, id → name, for the node page to name them: only those the viewer can see (another is shown as held, unnamed). */
export async function poolHolders(db: Db, nodeId: number, viewer: SessionUser): Promise<Map<string, string>> {
  const rows = await db
    .selectDistinct({ id: schema.servers.id, name: schema.servers.name })
    .from(schema.allocations)
    .innerJoin(schema.servers, eq(schema.servers.id, schema.allocations.serverId))
    .where(eq(schema.allocations.nodeId, nodeId))
    .all();
  const visible = new Map<string, string>();
  const accesses = await serverAccesses(db, viewer, rows.map((row) => row.id));
  for (const row of rows) if (accesses.get(row.id)!.view) visible.set(row.id, row.name);
  return visible;
}

/** The node's free allocations, by port. */
export async function freeAllocations(db: Db, nodeId: number): Promise<Row[]> {
  return await db.select().from(schema.allocations).where(and(eq(schema.allocations.nodeId, nodeId), isNull(schema.allocations.serverId))).orderBy(asc(schema.allocations.port), asc(schema.allocations.id)).all();
}

/** Whether the node has a pool at all (a node without one runs servers on the ports their variables name). */
export async function hasPool(db: Db, nodeId: number): Promise<boolean> {
  return await db.select({ id: schema.allocations.id }).from(schema.allocations).where(eq(schema.allocations.nodeId, nodeId)).limit(1).get() !== undefined;
}

const ALIAS = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?$/;

/** Adds `{ip, ports, alias?}` to the node's pool; all of it or, when a port is there already, none (ErrAllocationExists). */
export async function addToPool(db: Db, nodeId: number, body: Record<string, unknown>): Promise<AllocationView[]> {
  const node = await getNodeRow(db, nodeId);
  const ip = typeof body.ip === "string" && body.ip.trim() !== "" ? body.ip.trim() : EVERY_ADDRESS;
  if (!isIP(ip)) throw new KilnError("ErrFieldIsInvalidHost", { field: "ip" });
  const alias = body.alias === undefined || body.alias === null || body.alias === "" ? null : body.alias;
  if (alias !== null && (typeof alias !== "string" || !(ALIAS.test(alias) || isIP(alias)))) throw new KilnError("ErrFieldIsInvalidHost", { field: "alias" });
  const ports = parsePorts(body.ports);
  return await db.transaction(async (tx) => {
    const t = tx;
    const taken = await t.select({ ip: schema.allocations.ip, port: schema.allocations.port }).from(schema.allocations).where(and(eq(schema.allocations.nodeId, nodeId), inArray(schema.allocations.port, ports))).all();
    const clash = taken.find((row) => row.ip === ip || row.ip === EVERY_ADDRESS || ip === EVERY_ADDRESS);
    if (clash) throw new KilnError("ErrAllocationExists", { port: clash.port, ip: clash.ip });
    const now = Date.now();
    const rows = await t.insert(schema.allocations).values(ports.map((port) => ({ nodeId, ip, port, alias, createdAt: now }))).returning().all();
    await recordEvent(t, "node.allocations.added", { subject: nodeId, properties: { name: node.name, ip, ports: ports.length === 1 ? String(ports[0]) : `${ports[0]}-${ports.at(-1)} (${ports.length})`, alias } });
    return rows.map(allocationView);
  });
}

/** Removes a free allocation from the pool; one a server holds is ErrAllocationInUse. */
export async function removeFromPool(db: Db, nodeId: number, allocationId: number): Promise<void> {
  const node = await getNodeRow(db, nodeId);
  const row = await db.select().from(schema.allocations).where(and(eq(schema.allocations.id, allocationId), eq(schema.allocations.nodeId, nodeId))).get();
  if (!row) throw new KilnError("ErrNotFound", { id: allocationId });
  if (row.serverId !== null) throw new KilnError("ErrAllocationInUse", { port: row.port, server: row.serverId });
  // Only while still free: a server that took it between the read and now keeps it.
  const gone = await db.delete(schema.allocations).where(and(eq(schema.allocations.id, allocationId), isNull(schema.allocations.serverId))).returning().get();
  if (!gone) throw new KilnError("ErrAllocationInUse", { port: row.port });
  await recordEvent(db, "node.allocations.removed", { subject: nodeId, properties: { name: node.name, ip: row.ip, ports: String(row.port) } });
}
