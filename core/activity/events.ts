// Every event Kiln records in its activity log and offers to webhooks, once: its name (the wire
// string a webhook subscribes to), what it concerns (the server it names, or none), and the
// properties it may carry. A recorder keeps only the properties named here, so a password, a token
// or a file's content can never reach a row or a delivery by accident: the list is the rule.

/** Who did it: a signed-in user, an OAuth2 client acting for one, a node on its own, a task, or the panel itself. */
export const ACTOR_TYPES = ["user", "client", "node", "task", "system"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface EventRule {
  /** Properties kept (anything else given is dropped before it is written). */
  properties: readonly string[];
  /** It concerns one server: recorded with its id, shown on that server's Activity tab. */
  server?: true;
  /** A read, not a change: recorded because what was read is sensitive. */
  read?: true;
  /**
   * Anyone can cause it without signing in (a refused login). Past panel.activity.maxRows these
   * rows are pruned before any other (those naming no account first), so a flood of them cannot
   * push out what administrators and users did (server/services/activity/retention).
   */
  anonymous?: true;
}

const server = (...properties: string[]): EventRule => ({ server: true, properties });
const panel = (...properties: string[]): EventRule => ({ properties });

export const EVENTS = {
  // Accounts. A failed login names the name tried, never the password. Refusals past what is
  // recorded one by one (the throttle's, or too many from one address or for one account) are
  // counted on one user.login.throttled row per address and account a window
  // (server/services/activity/logins).
  "user.login": panel("method"),
  "user.login.failed": { ...panel("username", "reason"), anonymous: true },
  "user.login.throttled": { ...panel("username", "reason", "count", "last"), anonymous: true },
  "user.logout": panel(),
  "user.created": panel("username", "email", "scopes"),
  "user.deleted": panel("username"),
  "user.updated": panel("username", "email", "fields"),
  "user.password.changed": panel("username"),
  "user.scopes.changed": panel("username", "old", "new"),
  "user.totp.enabled": panel(),
  "user.totp.disabled": panel("username"),
  "user.passkey.added": panel("name"),
  "user.passkey.removed": panel("name"),
  "user.recoveryCodes.generated": panel(),
  "user.roles.changed": panel("old", "new"),
  "user.grant.detached": panel("kind", "value", "serverId", "providers"),
  "role.created": panel("name", "scopes"),
  "role.changed": panel("name", "old", "new"),
  "role.deleted": panel("name"),
  "user.identity.linked": panel("provider", "email"),
  "user.identity.unlinked": panel("provider"),
  // A manager's "Secure this account" (server/services/users/sign-in-ways): what went, beside each removal's own row.
  "user.secured": panel("username", "passkeys", "identities", "totp", "clients", "password"),
  "sso.provider.created": panel("provider", "name", "type"),
  "sso.provider.changed": panel("provider", "name", "fields"),
  "sso.provider.deleted": panel("provider"),
  "oauth2.client.created": panel("clientId", "name", "serverId"),
  "oauth2.client.deleted": panel("clientId"),
  // Servers as the panel keeps them.
  "server.created": server("name", "node", "template"),
  "server.deleted": server("name"),
  "server.renamed": server("old", "new"),
  "server.allocations.changed": server("old", "new"),
  "server.transfer.started": server("from", "to", "keepRunning"),
  // boundsCorrected: the bounds (core/definition/bounds) the source answered otherwise than the panel's copy, which the target got instead.
  // skipped: how many entries the source left out (hard links, FIFOs, sockets, devices: core/transfer/wire TransferSkipped).
  "server.transfer.completed": server("from", "to", "boundsCorrected", "skipped"),
  "server.transfer.failed": server("from", "to", "error", "boundsCorrected"),
  "server.user.added": server("username", "flags"),
  "server.user.changed": server("username", "old", "new"),
  "server.user.removed": server("username"),
  "server.definition.replaced": server(),
  "server.reloaded": server(),
  "server.variables.changed": server("names"),
  // What users do to a server through the node (core/contract's operations name these).
  "server.power.start": server(),
  "server.power.stop": server(),
  "server.power.restart": server(),
  "server.power.kill": server(),
  "server.power.install": server(),
  "server.console.command": server("command"),
  "server.file.read": { ...server("path"), read: true },
  "server.file.write": server("path", "folder", "via"),
  "server.file.delete": server("path", "via"),
  "server.file.rename": server("from", "to", "via"),
  "server.file.copy": server("from", "to"),
  "server.file.archive": server("path", "paths"),
  "server.file.extract": server("path", "destination"),
  "server.file.mode": server("path", "mode"),
  "server.sftp.login": server("username"),
  "server.task.created": server("task", "name"),
  "server.task.changed": server("task", "name"),
  "server.task.deleted": server("task"),
  "server.task.run": server("task", "name", "how", "ok"),
  "server.players.changed": server("list", "name", "ip", "action"),
  "server.players.kicked": server("name"),
  "server.mods.changed": server("change", "note"),
  "server.mods.undone": server("change"),
  "server.mods.pack": server("pack"),
  "server.mods.version": server("what", "variable", "value", "note"),
  "backup.created": server("note"),
  "backup.deleted": server("backup"),
  "backup.locked": server("backup", "locked"),
  "backup.adopted": server("backup"),
  "backup.restored": server("backup", "path"),
  "backup.downloaded": { ...server("backup", "format"), read: true },
  "backup.settings.changed": server("setting"),
  // What a node reports of its servers on its own (the lifecycle, a backup's end).
  "server.started": server(),
  "server.stopped": server(),
  "server.crashed": server("cause", "phase"),
  "server.installed": server(),
  "server.install.failed": server("cause"),
  "backup.completed": server("backup", "by"),
  "backup.failed": server("reason", "by"),
  // A task's webhook step: the text its author wrote, sent to one endpoint.
  "task.webhook": server("task", "text"),
  // The panel and its nodes.
  "node.created": panel("name"),
  "node.changed": panel("name", "fields"),
  "node.deleted": panel("name"),
  "node.allocations.added": panel("name", "ip", "ports", "alias"),
  "node.allocations.removed": panel("name", "ip", "ports"),
  "template.imported": panel("name", "source"),
  "template.saved": panel("name"),
  "template.deleted": panel("name"),
  "settings.changed": panel("keys"),
  "webhook.created": panel("webhook", "url", "serverId"),
  "webhook.changed": panel("webhook", "url", "enabled"),
  "webhook.deleted": panel("webhook"),
  "webhook.disabled": panel("webhook", "failures"),
  // Sent to one endpoint by its "send test" button; never recorded in the log.
  "webhook.test": panel("webhook"),
} as const satisfies Record<string, EventRule>;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

/** Only the properties the event's rule names, each a short scalar or a list of them (longer text is cut). */
export function keptProperties(event: EventName, given: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of (EVENTS[event] as EventRule).properties) {
    const value = given[name];
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.slice(0, 50).map(scalar) : scalar(value);
  }
  return out;
}

/** Longest text a property keeps: enough for a path or a console command. */
export const MAX_PROPERTY_TEXT = 1000;

function scalar(value: unknown): string | number | boolean | null {
  if (value === null || typeof value === "number" || typeof value === "boolean") return value as null | number | boolean;
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  return text.length > MAX_PROPERTY_TEXT ? `${text.slice(0, MAX_PROPERTY_TEXT)}…` : text;
}
