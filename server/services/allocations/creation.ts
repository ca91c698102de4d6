// Allocations for a server being created: the ones asked for (each free, of the chosen node), and
// free ones for the rest of the port variables, a variable's own default port first when it is
// free (25565 for Minecraft), else the lowest free port. A node with no pool assigns none, and the
// server keeps the ports its variables name, as PufferPanel's servers do.
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { KilnError } from "../../../core/errors";
import type { ServerDefinition } from "../../../core/definition";
import { portVariables } from "../../../core/definition/server-ports";
import type { NodeRow } from "../nodes";
import { freeAllocations, hasPool } from "./pool";
import { portsNeeded, withAllocations, type AllocationRow } from "./binding";

export interface CreationAllocations {
  /** The allocations to take, the primary first (empty: the node has no pool). */
  chosen: AllocationRow[];
  definition: ServerDefinition;
}

/** `sent`: the variables the request set; a port variable among them must name a free allocation of the node (its value is the allocation's, never dropped for another). */
export async function allocationsForCreation(db: Db, node: NodeRow, definition: ServerDefinition, requested: readonly number[] = [], sent: Record<string, unknown> = {}): Promise<CreationAllocations> {
  if (requested.length === 0 && !await hasPool(db, node.id)) return { chosen: [], definition };
  const free = await freeAllocations(db, node.id);
  const chosen: AllocationRow[] = [];
  for (const id of requested) {
    const row = free.find((a) => a.id === id);
    if (row) {
      if (!chosen.includes(row)) chosen.push(row);
      continue;
    }
    const exists = await db.select({ serverId: schema.allocations.serverId, nodeId: schema.allocations.nodeId, port: schema.allocations.port }).from(schema.allocations).where(eq(schema.allocations.id, id)).get();
    // Another node's allocation is as unknown here as one that does not exist.
    if (!exists || exists.nodeId !== node.id) throw new KilnError("ErrNotFound", { field: "allocations", id });
    throw new KilnError("ErrAllocationInUse", { port: exists.port });
  }
  const variables = portVariables(definition.data);
  const needed = portsNeeded(definition.data);
  for (let i = chosen.length; i < needed; i++) {
    const left = free.filter((a) => !chosen.includes(a));
    const wanted = Number(definition.data[variables[i] ?? ""]?.value);
    const named = Object.hasOwn(sent, variables[i] ?? "");
    const pick = left.find((a) => a.port === wanted) ?? (named ? undefined : left[0]);
    if (!pick && named) throw new KilnError("ErrPortFromAllocation", { field: `variables.${variables[i]}`, port: wanted });
    if (!pick) throw new KilnError("ErrNoFreeAllocation", { node: node.name, needed, free: free.length });
    chosen.push(pick);
  }
  return { chosen, definition: withAllocations(definition, chosen) };
}

/** Gives the chosen allocations to the new server inside its creation's transaction; one taken meanwhile is ErrAllocationInUse and undoes it all. */
export async function takeAllocations(tx: Db, serverId: string, chosen: readonly AllocationRow[]): Promise<void> {
  if (chosen.length === 0) return;
  const ids = chosen.map((a) => a.id);
  const taken = await tx.update(schema.allocations).set({ serverId }).where(and(inArray(schema.allocations.id, ids), isNull(schema.allocations.serverId))).returning({ id: schema.allocations.id }).all();
  if (taken.length !== ids.length) throw new KilnError("ErrAllocationInUse", { port: chosen.find((a) => !taken.some((t) => t.id === a.id))?.port ?? 0 });
  await tx.update(schema.allocations).set({ isPrimary: true }).where(eq(schema.allocations.id, ids[0]!)).run();
}
