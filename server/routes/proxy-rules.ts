// Which per-server permission each daemon call needs (spec section 6 checks, section 7 "Daemon
// proxy"), and which calls change state. A path not listed here is not proxied at all.
import type { Requirement } from "../services/servers";

/** Where the proxied calls of one server start: /proxy/daemon/server/{id}/… */
export const PROXY_SERVER_PREFIX = "/proxy/daemon/server/";
/** A server id as the proxy's route accepts it. */
const SERVER_ID = /^[A-Za-z0-9_-]+(?=\/|$)/;

/**
 * A call with any method but GET changes state. A GET that changes state anyway (PufferPanel's
 * extract) says so with "changes": the same-origin rule then holds for it as for a POST.
 */
type Rule = [method: string, pattern: RegExp, needs: Requirement, effect?: "changes"];

const RULES: Rule[] = [
  ["GET", /^$/, "admin"],
  ["POST", /^$/, "admin"],
  ["POST", /^\/reload$/, "admin"],
  ["GET", /^\/data$/, "editServerData"],
  ["POST", /^\/data$/, "editServerData"],
  ["GET", /^\/tasks$/, "editServerData"],
  ["POST", /^\/tasks$/, "editServerData"],
  ["POST", /^\/tasks\/[^/]+\/run$/, "editServerData"],
  ["PUT", /^\/tasks\/[^/]+$/, "editServerData"],
  ["DELETE", /^\/tasks\/[^/]+$/, "editServerData"],
  ["GET", /^\/status$/, "view"],
  ["GET", /^\/stats$/, "viewServerStats"],
  ["GET", /^\/console$/, "viewServerConsole"],
  ["POST", /^\/console$/, "sendServerConsole"],
  ["POST", /^\/(start|restart)$/, "startServer"],
  ["POST", /^\/(stop|kill)$/, "stopServer"],
  ["POST", /^\/install$/, "installServer"],
  ["GET", /^\/install\/changes$/, "installServer"],
  ["GET", /^\/file(\/.*)?$/, "viewServerFiles"],
  ["PUT", /^\/file(\/.*)?$/, "putServerFiles"],
  ["DELETE", /^\/file(\/.*)?$/, "putServerFiles"],
  ["POST", /^\/archive(\/.*)?$/, "putServerFiles"],
  ["GET", /^\/extract(\/.*)?$/, "putServerFiles", "changes"],
  // The file manager's own operations (issue 19): changing needs putServerFiles; searching and
  // a zip download only read.
  ["POST", /^\/(move|copy|mode)$/, "putServerFiles"],
  ["GET", /^\/(search|zip)$/, "viewServerFiles"],
  // Backups (issue 20): everything needs `backups`; the policy (target, retention, maximum,
  // console commands) is an administrator's.
  ["GET", /^\/backups$/, "backups"],
  ["POST", /^\/backups$/, "backups"],
  ["DELETE", /^\/backups\/[^/]+$/, "backups"],
  ["POST", /^\/backups\/[^/]+\/(lock|restore)$/, "backups"],
  ["GET", /^\/backups\/[^/]+\/download$/, "backups"],
  ["GET", /^\/backup-settings$/, "backups"],
  ["POST", /^\/backup-settings\/ignore$/, "backups"],
  ["POST", /^\/backup-settings\/policy$/, "admin"],
];

function ruleFor(method: string, rest: string): Rule | undefined {
  // Hono answers HEAD through the GET route, and the node runs the GET's work for it.
  const verb = method === "HEAD" ? "GET" : method;
  return RULES.find(([m, pattern]) => m === verb && pattern.test(rest));
}

/** What a call needs, or null when the proxy does not offer it. `rest` is the path after the id. */
export function proxyRequirement(method: string, rest: string): Requirement | null {
  return ruleFor(method, rest)?.[2] ?? null;
}

/**
 * Whether a proxied call changes state. A call the table does not offer changes nothing: it is
 * answered "not found" and never reaches the node (the proxy reads the path with the same
 * proxyCall and ruleFor, so the two cannot disagree on what a path is).
 */
export function proxyChangesState(method: string, rest: string): boolean {
  const rule = ruleFor(method, rest);
  return rule !== undefined && (rule[0] !== "GET" || rule[3] === "changes");
}

/**
 * The server id and the rest of a proxied call's path, or null for any other path. The id is
 * read from the routed (decoded) path as the route's :id is; the rest from the raw path, so a
 * file name holding "?", "#" or "%" reaches the node as it was sent.
 */
export function proxyCall(routedPath: string, rawPath: string): { id: string; rest: string } | null {
  if (!routedPath.startsWith(PROXY_SERVER_PREFIX)) return null;
  const id = SERVER_ID.exec(routedPath.slice(PROXY_SERVER_PREFIX.length))?.[0];
  return id === undefined ? null : { id, rest: rawPath.slice(PROXY_SERVER_PREFIX.length + id.length) };
}

/**
 * Socket messages and the permission each needs (spec section 6; "status" only needs to see it).
 * `message` is the message as the socket guard read it, its fields beside `type`
 * (core/live/guard): the same fields the node then acts on.
 */
export function socketRequirement(message: { type: string } & Record<string, unknown>): Requirement | null {
  switch (message.type) {
    case "status":
      return "view";
    case "stat":
      return "viewServerStats";
    case "replay":
      return "viewServerConsole";
    case "console":
      return "sendServerConsole";
    case "start":
    case "restart":
      return "startServer";
    case "stop":
    case "kill":
      return "stopServer";
    case "install":
      return "installServer";
    case "file":
      return message.action === "get" ? "viewServerFiles" : "putServerFiles";
    default:
      return null;
  }
}

/** What a user must hold to receive a message the daemon pushes. */
export function receiveRequirement(type: string): Requirement {
  switch (type) {
    case "console":
      return "viewServerConsole";
    case "stat":
      return "viewServerStats";
    case "file":
      return "viewServerFiles";
    default:
      return "view";
  }
}
