// Records a node operation a user's request made (core/contract's table names its event): from
// the daemon proxy and from the panel's typed node client alike, so each door records the same
// row. Properties are read from the call — the path after the operation's fixed part and its named
// parameters, then only the query and JSON body keys the operation's entry lists
// (activityProperties), or a text body (a console command) — and core/activity keeps only the ones
// the event's rule names, so nothing else (a file's bytes, a variable's value) reaches the log and a
// caller cannot claim what the panel states: what the path named, the door (`via`), which backup
// setting an operation sets.
import { NODE_OPERATIONS, type NodeOperation, type NodeOperationName } from "../../../core/contract";
import type { EventName } from "../../../core/activity";
import type { WhitelistAction } from "../../../core/activity/property-values";
import { recordEvent } from "./record";
import { requestDb } from "./actor";

export interface OperationCall {
  /** The node called: what a node-wide operation (its backup targets) is recorded about. */
  node?: { id: number; name: string };
  /** The concrete path called, e.g. /daemon/server/abc/file/world/level.dat. */
  path: string;
  query?: URLSearchParams;
  /** The request body when it was text (JSON or a console command); a streamed body is not read. */
  body?: string;
  /** What the node answered: a file read is recorded only when a file (not a folder's listing) came back. */
  contentType?: string | null;
}

/** Records the operation's event when it has one and a user's request is being served. */
export async function recordOperation(name: NodeOperationName, call: OperationCall): Promise<void> {
  const operation: NodeOperation = NODE_OPERATIONS[name];
  const event = operation.activity;
  const db = requestDb();
  if (!event || !db) return;
  if (event === "server.file.read" && call.contentType?.includes("application/json")) return;
  const params = matchParams(operation.path, call.path);
  if (!params) return;
  const taken = operation.activityProperties ?? {};
  const properties: Record<string, unknown> = {
    ...derived(event, picked(call.query ? Object.fromEntries(call.query) : {}, taken.query), jsonBody(call.body, taken.body)),
    ...taken.fixed,
    // The path's parameters last: what the node acted on is what the path named, whatever the
    // query or body say (a kick names its player in the path, a list is the path's).
    ...params,
  };
  if (params.taskId) properties.task = params.taskId;
  if (params.changeId) properties.change = params.changeId;
  if (event === "server.console.command" && call.body !== undefined && call.body !== "") properties.command = call.body.replace(/\r?\n$/, "");
  // The door a change came through is the panel's to say: the node's SFTP report and the socket
  // proxy set `via`; a call through here is HTTP, which the log records as no `via` at all.
  delete properties.via;
  // A node-wide change (its backup targets) is about the node, named as node.changed names its fields.
  if (!params.id) Object.assign(properties, { name: call.node?.name, fields: [`backupTarget.${params.kind}`] });
  await recordEvent(db, event, { serverId: params.id ?? null, subject: params.id ? null : (call.node?.id ?? null), properties });
}

/** Only the named keys of what the caller sent. */
function picked(given: Record<string, unknown>, keys: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(given, key)).map((key) => [key, given[key]]));
}

/** The listed keys of a JSON object body; an array body as `paths` when that is listed (an archive's list). */
function jsonBody(body: string | undefined, keys: readonly string[] = []): Record<string, unknown> {
  if (body === undefined || body === "" || keys.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object") return {};
  if (Array.isArray(parsed)) return keys.includes("paths") ? { paths: parsed } : {};
  return picked(parsed as Record<string, unknown>, keys);
}

/** The row's properties from what was taken of the query and the body, for the events that say a thing of it rather than repeat it. */
function derived(event: EventName, query: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
  // Variables: which changed, never their values (a password may be one).
  if (event === "server.variables.changed") return { names: body.data && typeof body.data === "object" ? Object.keys(body.data) : [] };
  if (event === "server.players.changed" && "enabled" in body) return { action: (body.enabled ? "whitelist-on" : "whitelist-off") satisfies WhitelistAction };
  return { ...query, ...body };
}

/**
 * The named parameters of a concrete path against an operation's pattern (`:name` segments, and
 * `path` for a trailing `*`, decoded); null when it does not fit.
 */
export function matchParams(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("?")[0]!.split("/");
  const out: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment === "*") {
      out.path = got.slice(i).map(decode).join("/");
      return out;
    }
    const value = got[i];
    if (value === undefined) return null;
    if (segment.startsWith(":")) out[segment.slice(1)] = decode(value);
    else if (segment !== value) return null;
  }
  return got.length === want.length ? out : null;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
