// What a caller holds on one server and the one check of it: administrators hold every flag;
// everyone else the flags of their row for that server. Pure, so the panel's services, its views
// and the browser's islands ask the same function.
import { SERVER_FLAGS, type ServerFlag } from "./index";

export type ServerPermissions = Record<ServerFlag, boolean>;

export interface ServerAccess {
  /** true when the caller may see the server at all (a row, or admin) */
  view: boolean;
  admin: boolean;
  permissions: ServerPermissions;
}

/** What a check needs: a flag, "admin", or merely seeing the server. */
export type ServerRequirement = ServerFlag | "admin" | "view";

const KNOWN_FLAGS: ReadonlySet<string> = new Set(SERVER_FLAGS);

/** Every flag, in SERVER_FLAGS' order, true where `flags` names it (or everywhere when `all`). Asked for every row of a list: a loop, not a map of entries. */
export function flagsToPermissions(flags: readonly string[], all = false): ServerPermissions {
  const permissions = {} as ServerPermissions;
  for (const flag of SERVER_FLAGS) permissions[flag] = all;
  if (!all) for (const flag of flags) if (KNOWN_FLAGS.has(flag)) permissions[flag as ServerFlag] = true;
  return permissions;
}

/** The flags a form or request grants; values are read as booleans the way browsers and PufferPanel's clients send them. */
export function permissionsToFlags(input: Record<string, unknown>): ServerFlag[] {
  return SERVER_FLAGS.filter((f) => input[f] === true || input[f] === "true" || input[f] === "on" || input[f] === 1);
}

export function allows(access: ServerAccess, needs: ServerRequirement): boolean {
  if (access.admin) return true;
  if (needs === "admin") return false;
  if (needs === "view") return access.view;
  return access.permissions[needs];
}
