// How a server's allocations reach the node: they fill the definition's port variables in order
// (the primary's port the primary variable, core/definition/server-ports portVariables; extras the
// others by when they were taken), and a primary on one address (not 0.0.0.0) sets the `ip`
// variable. The node needs nothing else: it publishes and checks the ports its variables name.
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { isPortVariable, portVariables, publishedPort } from "../../../core/definition/server-ports";
import type { ServerDefinition } from "../../../core/definition";
import { EVERY_ADDRESS } from "./pool";
import { KilnError } from "../../../core/errors";

export type AllocationRow = typeof schema.allocations.$inferSelect;

/** The server's allocations, the primary first, then the extras in the order they were taken. */
export async function heldBy(db: Db, serverId: string): Promise<AllocationRow[]> {
  return await db.select().from(schema.allocations).where(eq(schema.allocations.serverId, serverId)).orderBy(desc(schema.allocations.isPrimary), asc(schema.allocations.id)).all();
}

/** The variable values `held` (primary first) stand for in this definition. */
export function boundValues(data: ServerDefinition["data"], held: readonly Pick<AllocationRow, "ip" | "port">[]): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  portVariables(data).forEach((name, i) => {
    const allocation = held[i];
    if (allocation) values[name] = typeof data[name]?.value === "number" ? allocation.port : String(allocation.port);
  });
  const primary = held[0];
  if (primary && primary.ip !== EVERY_ADDRESS && data.ip !== undefined) values.ip = primary.ip;
  return values;
}

/** The definition with `held`'s values in its variables, and the allocations no variable carries as its extra ports. */
export function withAllocations<T extends Pick<ServerDefinition, "data" | "extraPorts">>(definition: T, held: readonly Pick<AllocationRow, "ip" | "port">[]): T {
  const next = structuredClone(definition);
  for (const [name, value] of Object.entries(boundValues(next.data, held))) next.data[name]!.value = value;
  const extra = held.slice(portVariables(next.data).length).map((a) => a.port);
  if (extra.length > 0) next.extraPorts = extra;
  else delete next.extraPorts;
  return next;
}

/** How many allocations the definition's port variables ask for (one at least: the address players use). */
export function portsNeeded(data: ServerDefinition["data"]): number {
  return Math.max(1, portVariables(data).length);
}

/**
 * Refuses a change of variables (`submitted`: name → value, or PufferPanel's {value} objects) that
 * would give an allocation-filled variable another value than its allocation's, or any other port
 * variable (core/definition/server-ports: the node publishes them all) a port none of the server's
 * allocations holds, whoever asks: the port changes through the allocations, so two servers never
 * end up on one port and none on a port the pool did not hand out. What the definition has already
 * (`current`: the definition as it is, `definition` itself unless the whole is replaced) is kept:
 * a server made before `portv6` counted as a port variable may hold it outside its allocations
 * until they change, and its other settings still save.
 */
export async function assertNotAllocationBound(db: Db, serverId: string, definition: Pick<ServerDefinition, "data" | "extraPorts">, submitted: Record<string, unknown>, whole = false, current: () => Promise<Pick<ServerDefinition, "data" | "extraPorts">> = async () => definition): Promise<void> {
  const held = await heldBy(db, serverId);
  let now: Promise<Pick<ServerDefinition, "data" | "extraPorts">> | undefined;
  const kept = async (name: string, value: unknown) => String(value) === String((await (now ??= current())).data[name]?.value);
  const valueOf = (raw: unknown) => (typeof raw === "object" && raw !== null && "value" in raw ? (raw as { value: unknown }).value : raw);
  if (held.length === 0) return await assertNotFromPool(db, serverId, submitted, valueOf, kept);
  // Where a definition puts its ports: its port variables' values and its extra ports.
  const placement = (d: Pick<ServerDefinition, "data" | "extraPorts">) => JSON.stringify([Object.entries(d.data ?? {}).filter(([name]) => isPortVariable(name)).map(([name, v]) => [name, String(v?.value)]), d.extraPorts ?? []]);
  // A whole definition names its extra ports too: they must be the allocations' own (or, with every port variable, as they are).
  if (whole && JSON.stringify(withAllocations(definition, held).extraPorts ?? []) !== JSON.stringify(definition.extraPorts ?? []) && placement(definition) !== placement(await (now ??= current()))) throw new KilnError("ErrPortFromAllocation", { field: "extraPorts", port: held.slice(portVariables(definition.data).length).map((a) => a.port).join(",") || "-" });
  const bound = boundValues(definition.data, held);
  for (const [name, value] of Object.entries(bound)) {
    if (!Object.hasOwn(submitted, name)) continue;
    const sent = valueOf(submitted[name]);
    if (String(sent) !== String(value) && !(await kept(name, sent))) throw new KilnError("ErrPortFromAllocation", { field: name, port: value });
  }
  // A port variable no allocation fills (more of them than allocations, or one whose value was no port number).
  const ports = held.map((a) => a.port);
  for (const [name, raw] of Object.entries(submitted)) {
    if (!isPortVariable(name) || Object.hasOwn(bound, name)) continue;
    const port = publishedPort(valueOf(raw));
    if (port === null || ports.includes(port) || (await kept(name, valueOf(raw)))) continue;
    throw new KilnError("ErrPortFromAllocation", { field: name, port: ports.join(",") });
  }
}

/**
 * A server that holds no allocation (made before its node had a pool) keeps the ports it has, and
 * may move a port variable to a port outside the pool; a port of the pool is handed out by the
 * pool alone: one another server holds is ErrAllocationInUse, a free one is taken through the
 * Network tab (ErrPortFromAllocation). Else it could move onto a port the pool gave another server.
 */
async function assertNotFromPool(db: Db, serverId: string, submitted: Record<string, unknown>, valueOf: (raw: unknown) => unknown, kept: (name: string, value: unknown) => Promise<boolean>): Promise<void> {
  const node = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, serverId)).get();
  if (!node) return;
  for (const [name, raw] of Object.entries(submitted)) {
    if (!isPortVariable(name)) continue;
    const port = publishedPort(valueOf(raw));
    if (port === null) continue;
    const pooled = await db.select({ serverId: schema.allocations.serverId }).from(schema.allocations).where(and(eq(schema.allocations.nodeId, node.nodeId), eq(schema.allocations.port, port))).all();
    if (pooled.length === 0 || (await kept(name, valueOf(raw)))) continue;
    if (pooled.some((row) => row.serverId !== null && row.serverId !== serverId)) throw new KilnError("ErrAllocationInUse", { port });
    throw new KilnError("ErrPortFromAllocation", { field: name, port });
  }
}
