// The allocations a moved server takes on its new node. "keep": the ports it has now wherever the
// target's pool has them free, free ones for the rest; "new": free ones, as for a new server. A
// target without a pool assigns none, and the server keeps the ports its variables name.
import type { Db } from "../../../db";
import type { ServerDefinition } from "../../../core/definition";
import type { NodeRow } from "../nodes";
import { freeAllocations, hasPool } from "../allocations/pool";
import { allocationsForCreation } from "../allocations/creation";
import { heldBy, type AllocationRow } from "../allocations/binding";
import { portVariables } from "../../../core/definition/server-ports";

export async function targetAllocations(db: Db, serverId: string, target: NodeRow, definition: ServerDefinition, policy: "keep" | "new"): Promise<{ chosen: AllocationRow[]; definition: ServerDefinition }> {
  if (!await hasPool(db, target.id)) return { chosen: [], definition };
  const requested: number[] = [];
  if (policy === "keep") {
    const held = await heldBy(db, serverId);
    // Without allocations on the source, its ports are its variables' values.
    const ports = held.length > 0 ? held.map((a) => a.port) : portVariables(definition.data).map((name) => Number(definition.data[name]?.value));
    const free = await freeAllocations(db, target.id);
    for (const port of ports) {
      const same = free.find((a) => a.port === port && !requested.includes(a.id));
      if (same) requested.push(same.id);
      else break; // the order is the variables': a gap is filled by free ones from here on
    }
  }
  return await allocationsForCreation(db, target, definition, requested);
}
