// What a user may put in a task, and run: no more than they may do by hand (core/tasks
// operationNeeds). Checked when a task is saved, when a user runs it now (their rights, not its
// author's), and before every scheduled run (its author's rights as they are then).
import { KilnError } from "../../../core/errors";
import { operationNeeds } from "../../../core/tasks";
import { allows, type ServerAccess } from "../servers/permissions";

/** Throws ErrNoPermission naming the first right the caller lacks for one of the operations. */
export function assertMayUseOperations(access: ServerAccess, operationTypes: readonly string[]): void {
  for (const type of operationTypes) {
    const missing = operationNeeds(type).find((needs) => !allows(access, needs));
    if (missing) throw new KilnError("ErrNoPermission", { permission: missing, operation: type }, `a ${type} step needs the ${missing} permission`);
  }
}
