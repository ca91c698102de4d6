// How a server's allocations reach the node: they fill the definition's port variables in order
// (the primary's port the primary variable, core/definition/server-ports portVariables; extras the
// others by when they were taken), and a primary on one address (not 0.0.0.0) sets the `ip`
// variable. The node needs nothing else: it publishes and checks the ports its variables name.
import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { portVariables } from "../../../core/definition/server-ports";
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
 * would give an allocation-filled variable another value than its allocation's, whoever asks: the
 * port changes through the allocations, so two servers never end up on one port.
 */
export async function assertNotAllocationBound(db: Db, serverId: string, definition: Pick<ServerDefinition, "data" | "extraPorts">, submitted: Record<string, unknown>, whole = false): Promise<void> {
  const held = await heldBy(db, serverId);
  if (held.length === 0) return;
  // A whole definition names its extra ports too: they must be the allocations' own.
  if (whole && JSON.stringify(withAllocations(definition, held).extraPorts ?? []) !== JSON.stringify(definition.extraPorts ?? [])) throw new KilnError("ErrPortFromAllocation", { field: "extraPorts", port: held.slice(portVariables(definition.data).length).map((a) => a.port).join(",") || "-" });
  for (const [name, bound] of Object.entries(boundValues(definition.data, held))) {
    if (!Object.hasOwn(submitted, name)) continue;
    const raw = submitted[name];
    const value = typeof raw === "object" && raw !== null && "value" in raw ? (raw as { value: unknown }).value : raw;
    if (String(value) !== String(bound)) throw new KilnError("ErrPortFromAllocation", { field: name, port: bound });
  }
}
