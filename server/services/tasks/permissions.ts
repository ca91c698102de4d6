// What a user may put in a task, and run: no more than they may do by hand (core/tasks
// operationNeeds), triggers only on what they may see (triggerNeeds), and no variable they may not
// see (assertSeesNamedVariables). Checked when a task is saved, when a user runs it now (their
// rights, not its author's), and before every scheduled or triggered run (its author's rights as
// they are then, against the server's variables as they are then).
import { KilnError } from "../../../core/errors";
import type { ServerDefinition } from "../../../core/definition";
import { MAX_CONDITION_LENGTH } from "../../../core/definition/conditions";
import { referencedNamesDeep } from "../../../core/definition/substitute";
import { OPERATION_TYPES, TRIGGER_TYPES, operationNeeds, triggerNeeds } from "../../../core/tasks";
import { allows, type ServerAccess } from "../servers/permissions";
import { editableVariables } from "../servers/variables";

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

/**
 * The names an operation could read a server variable by on the node: every `${name}` in any of
 * its strings (the node substitutes a step whole, core/definition/substitute's substituteDeep, so
 * every string counts, a field left as written today too), and every name its `if` condition reads
 * (a step that runs or not tells a value as surely as a file does). The steps that read variables
 * in other ways (command and containerscript through their environment, configfile's {{env.…}})
 * need an administrator (operationNeeds), who sees every variable.
 */
function variablesNamed(operation: unknown): string[] {
  const condition = operation && typeof operation === "object" ? (operation as { if?: unknown }).if : undefined;
  // A condition over the length bound is never evaluated (the step fails instead), so it reads
  // nothing; one stored before the bound may be megabytes, not worth parsing on every check.
  const readable = typeof condition === "string" && condition.trim().length <= MAX_CONDITION_LENGTH;
  return [...referencedNamesDeep(operation), ...(readable ? conditionNames(condition) : [])];
}

/**
 * Throws ErrNoPermission naming the first of the server's variables that the operations name
 * (variablesNamed), or the task's variable condition names, and that the caller may not see (not
 * userEdit, for anyone but an administrator). The rule: a task never reads a variable its author
 * could not read by hand, since its steps could write the value into a file, or guess it. A name
 * that is no variable of the server (a trigger's ${trigger.0}, a literal ${…}) is left alone in a
 * step, as the node leaves it; a condition must name a variable the caller sees.
 */
export function assertSeesNamedVariables(definition: Pick<ServerDefinition, "data">, access: ServerAccess, operations: readonly unknown[], conditionVariable?: string): void {
  const visible = editableVariables(definition, access);
  if (conditionVariable !== undefined && !Object.hasOwn(visible, conditionVariable)) throw notVisible(conditionVariable);
  for (const operation of operations) {
    const hidden = variablesNamed(operation).find((name) => Object.hasOwn(definition.data ?? {}, name) && !Object.hasOwn(visible, name));
    if (hidden !== undefined) throw notVisible(hidden);
  }
}

/** Whether assertSeesNamedVariables could refuse anything here: when not, the server's definition need not be fetched. */
export function mayNameHiddenVariables(access: ServerAccess, operations: readonly unknown[], conditionVariable?: string): boolean {
  return conditionVariable !== undefined || (!access.admin && operations.some((operation) => variablesNamed(operation).length > 0));
}

function notVisible(name: string): KilnError {
  return new KilnError("ErrNoPermission", { field: name }, `${name} is not a variable you may see`);
}

/**
 * Every identifier a step's CEL condition reads (core/definition/conditions gives it each variable
 * by its name), found in the parsed expression; a name a macro binds counts too, which refuses at
 * worst a condition that shadows a hidden variable. One that does not parse cannot run either, but
 * every word in it counts. The CEL library loads on first use, as conditions' does.
 */
function conditionNames(condition: string): string[] {
  let ast: unknown;
  try {
    ast = (require("@marcbachmann/cel-js") as typeof import("@marcbachmann/cel-js")).parse(condition.trim()).ast;
  } catch {
    return condition.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  }
  const names: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== "object") return;
    const { op, args } = node as { op?: unknown; args?: unknown };
    if (op === "id" && typeof args === "string") names.push(args);
    else walk(args);
  };
  walk(ast);
  return names;
}
