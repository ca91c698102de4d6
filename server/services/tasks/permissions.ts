// What a user may put in a task, and run: no more than they may do by hand (core/tasks
// operationNeeds), and triggers only on what they may see (triggerNeeds). Checked when a task is
// saved, when a user runs it now (their rights, not its author's), and before every scheduled or
// triggered run (its author's rights as they are then).
import { KilnError } from "../../../core/errors";
import { OPERATION_TYPES, TRIGGER_TYPES, operationNeeds, triggerNeeds } from "../../../core/tasks";
import { allows, type ServerAccess } from "../servers/permissions";

/** The operation types the caller may put in a task: what the step editor offers them. */
export function usableOperations(access: ServerAccess): string[] {
  return OPERATION_TYPES.filter((type) => operationNeeds(type).every((needs) => allows(access, needs)));
}

/** Throws ErrNoPermission naming the first right the caller lacks for one of the operations. */
export function assertMayUseOperations(access: ServerAccess, operationTypes: readonly string[]): void {
  for (const type of operationTypes) {
    const missing = operationNeeds(type).find((needs) => !allows(access, needs));
    if (missing) throw new KilnError("ErrNoPermission", { permission: missing, operation: type }, `a ${type} step needs the ${missing} permission`);
  }
}

/** The trigger types the caller may put on a task: what the triggers editor offers them. */
export function usableTriggers(access: ServerAccess): string[] {
  return TRIGGER_TYPES.filter((type) => triggerNeeds(type).every((needs) => allows(access, needs)));
}

/** Throws ErrNoPermission naming the first right the caller lacks for one of the triggers. */
export function assertMayUseTriggers(access: ServerAccess, triggerTypes: readonly string[]): void {
  for (const type of triggerTypes) {
    const missing = triggerNeeds(type).find((needs) => !allows(access, needs));
    if (missing) throw new KilnError("ErrNoPermission", { permission: missing, trigger: type }, `a ${type} trigger needs the ${missing} permission`);
  }
}
