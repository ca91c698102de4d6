// The undo of a version switch (./version-switch): the backup taken before it restored, world
// included, and what the switch set as it was. A switch that replaced the whole definition (a
// platform, a modpack laid onto another template) puts the replaced one back only while the
// server's definition is still the very one the switch made: put back after any change since, it
// would revert an administrator's later choices (lower limits, another allocation's port, now
// maybe another server's; a JVM flag) on the word of a manageMods holder alone. So any change to
// the definition since (whoever made it, by whatever door: the node is where it lives) makes the
// switch's undo unavailable, and switching back is a new switch, checked as one; what the undo
// puts back is checked as a switch's definition is (keepsAdministration) all the same. And since
// the undo lays a backup over everything played since, it is offered for SWITCH_UNDO_MS only.
import { createHash } from "node:crypto";
import { KilnError } from "../../core/errors";
import { withVariableValues, type ServerDefinition } from "../../core/definition";
import type { ChangeContext } from "./changes";
import type { Journal } from "./journals";
import { keepsAdministration } from "./keeps-administration";

/** How long after a switch its undo is offered: a day to find the switch does not suit the server. */
export const SWITCH_UNDO_MS = 24 * 60 * 60 * 1000;

type Switched = NonNullable<Journal["switched"]>;

/** A definition's mark: the SHA-256 of its JSON with every object's keys sorted (the same definition read back from disk has the same mark). */
export function definitionMark(definition: ServerDefinition): string {
  return createHash("sha256").update(JSON.stringify(sortedKeys(definition))).digest("hex");
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

/**
 * The definition the undo gives a server whose definition is `current`; ErrModSwitchUndoExpired a
 * day on, ErrModSwitchUndoChanged once the definition changed since the switch.
 */
function undoneDefinition(current: ServerDefinition, switched: Switched, writtenAt: number, now: number): ServerDefinition {
  if (now - writtenAt > SWITCH_UNDO_MS) throw new KilnError("ErrModSwitchUndoExpired");
  if (switched.definition === undefined) return withVariableValues(current, { [switched.variable]: switched.previous });
  // A journal without the mark cannot tell what changed since: unavailable too.
  if (switched.made === undefined || switched.made !== definitionMark(current)) throw new KilnError("ErrModSwitchUndoChanged");
  // The same pair of definitions the switch was checked as (from the one it replaced to the one it made), checked again.
  keepsAdministration(switched.definition, current);
  return switched.definition;
}

/** Whether the switch can still be undone (the listing offers the undo only then). */
export function switchUndoable(current: ServerDefinition, switched: Switched, writtenAt: number, now = Date.now()): boolean {
  try {
    undoneDefinition(current, switched, writtenAt, now);
    return true;
  } catch {
    return false;
  }
}

/** Undoes a switch: checked, its backup restored, the variable (or the definition) as it was, the journal dropped. */
export async function undoSwitch(ctx: ChangeContext, serverId: string, switched: Switched, writtenAt: number): Promise<void> {
  const now = Date.now();
  const undone = () => undoneDefinition(ctx.deps.manager.get(serverId).definition, switched, writtenAt, now);
  // Before anything changes: a refused undo changes nothing.
  undone();
  await ctx.deps.restore(serverId, switched.backup);
  try {
    // Again: a definition changed while the backup was restored (an administrator's) stays.
    ctx.deps.manager.update(serverId, undone());
  } catch (error) {
    ctx.deps.log(`kiln daemon: the definition of ${serverId} changed while a switch's backup was restored; it was kept`);
    throw error;
  } finally {
    ctx.journals.drop(serverId);
  }
}
