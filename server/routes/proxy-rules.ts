// How the daemon proxy reads a call: the server id and the rest of the path, and whether the call
// changes state, read from the node contract's table (core/contract/node-operations), which also
// says what each call needs. A path the table does not offer is not proxied at all.
import { operationChangesState, proxiedOperation } from "../../core/contract";

/** Where the proxied calls of one server start: /proxy/daemon/server/{id}/… */
export const PROXY_SERVER_PREFIX = "/proxy/daemon/server/";
/** A server id as the proxy's route accepts it. */
const SERVER_ID = /^[A-Za-z0-9_-]+(?=\/|$)/;

/**
 * Whether a proxied call changes state: any method but GET, and a GET the table marks (PufferPanel's
 * extract). A call the table does not offer changes nothing: it is answered "not found" and never
 * reaches the node (the proxy reads the path with the same proxyCall and proxiedOperation, so the
 * two cannot disagree on what a path is).
 */
export function proxyChangesState(method: string, rest: string): boolean {
  const operation = proxiedOperation(method, rest);
  return operation !== undefined && operationChangesState(operation);
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
