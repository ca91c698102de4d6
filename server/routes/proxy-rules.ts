// Which per-server permission each daemon call needs (spec section 6 checks, section 7 "Daemon
// proxy"). A path not listed here is not proxied at all.
import type { Requirement } from "../services/servers";

type Rule = [method: string, pattern: RegExp, needs: Requirement];

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
  ["GET", /^\/file(\/.*)?$/, "viewServerFiles"],
  ["PUT", /^\/file(\/.*)?$/, "putServerFiles"],
  ["DELETE", /^\/file(\/.*)?$/, "putServerFiles"],
  ["POST", /^\/archive(\/.*)?$/, "putServerFiles"],
  ["GET", /^\/extract(\/.*)?$/, "putServerFiles"],
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

/** What a call needs, or null when the proxy does not offer it. `rest` is the path after the id. */
export function proxyRequirement(method: string, rest: string): Requirement | null {
  const verb = method === "HEAD" ? "GET" : method;
  return RULES.find(([m, pattern]) => m === verb && pattern.test(rest))?.[2] ?? null;
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
