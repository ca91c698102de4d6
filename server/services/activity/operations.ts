// Records a node operation a user's request made (core/contract's table names its event): from
// the daemon proxy and from the panel's typed node client alike, so each door records the same
// row. Properties are read from the call — the path after the operation's fixed part, the named
// parameters, the query and a small JSON or text body — and core/activity keeps only the ones the
// event's rule names, so nothing else (a file's bytes, a variable's value) reaches the log.
import { NODE_OPERATIONS, type NodeOperationName } from "../../../core/contract";
import type { EventName } from "../../../core/activity";
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
  const event = (NODE_OPERATIONS[name] as { activity?: EventName | null }).activity;
  const db = requestDb();
  if (!event || !db) return;
  if (event === "server.file.read" && call.contentType?.includes("application/json")) return;
  const params = matchParams(NODE_OPERATIONS[name].path, call.path);
  if (!params) return;
  const properties: Record<string, unknown> = { ...Object.fromEntries(call.query ?? []), ...params };
  if (params.taskId) properties.task = params.taskId;
  if (params.path !== undefined) properties.path = params.path;
  Object.assign(properties, bodyProperties(event, call.body));
  // A node-wide change (its backup targets) is about the node, named as node.changed names its fields.
  if (!params.id) Object.assign(properties, { name: call.node?.name, fields: [`backupTarget.${params.kind}`] });
  await recordEvent(db, event, { serverId: params.id ?? null, subject: params.id ? null : (call.node?.id ?? null), properties });
}

function bodyProperties(event: EventName, body: string | undefined): Record<string, unknown> {
  if (body === undefined || body === "") return {};
  if (event === "server.console.command") return { command: body.replace(/\r?\n$/, "") };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== "object") return {};
  if (Array.isArray(parsed)) return { paths: parsed };
  const record = parsed as Record<string, unknown>;
  // Variables: which changed, never their values (a password may be one).
  if (event === "server.variables.changed") return { names: record.data && typeof record.data === "object" ? Object.keys(record.data) : [] };
  if (event === "server.task.created" || event === "server.task.changed") return { name: record.name };
  if (event === "server.mods.changed") return { change: record.changeId, note: record.note };
  if (event === "backup.settings.changed") return { setting: "retention" in record || "target" in record ? "policy" : "ignore" };
  if (event === "server.players.changed") return { ...record, action: "enabled" in record ? (record.enabled ? "whitelist-on" : "whitelist-off") : undefined };
  return record;
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
