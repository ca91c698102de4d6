// Panel-wide scopes and per-server permission flags, declared once as wire strings.

export const SCOPES = {
  admin: "servers.admin",
  serversView: "servers.view",
  serversCreate: "servers.create",
  serversDelete: "servers.delete",
  serversEditAdmin: "servers.edit.admin",
  nodesView: "nodes.view",
  nodesEdit: "nodes.edit",
  nodesDeploy: "nodes.deploy",
  templatesView: "templates.view",
  templatesEdit: "templates.edit",
  usersView: "users.view",
  usersEdit: "users.edit",
  settingsEdit: "settings.edit",
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export const ALL_SCOPES = Object.values(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as string[]).includes(value);
}

/** Admin passes every check. */
export function hasScope(held: readonly string[], needed: Scope): boolean {
  return held.includes(SCOPES.admin) || held.includes(needed);
}

export const SERVER_FLAGS = [
  "editServerData",
  "installServer",
  "viewServerConsole",
  "sendServerConsole",
  "stopServer",
  "startServer",
  "viewServerStats",
  "sftpServer",
  "viewServerFiles",
  "putServerFiles",
  "editServerUsers",
  "deleteServer",
  // Kiln's addition to the twelve above: create, restore, delete, lock and download backups.
  "backups",
  // Kiln's addition: a Minecraft Java server's whitelist, operators, bans, IP bans and kicks.
  "managePlayers",
  // Kiln's addition: browse, install, update, disable, remove and undo mods and plugins, and switch
  // the platform's version (every change is preceded by a backup).
  "manageMods",
  // Kiln's additions: read the server's activity log, and register webhooks for its events.
  "viewActivity",
  "manageWebhooks",
  // Kiln's addition: take ports from the node's pool for the server (up to its limit), pick the
  // primary, give extras back.
  "manageAllocations",
] as const;

export type ServerFlag = (typeof SERVER_FLAGS)[number];
