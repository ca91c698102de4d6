// Who may hold a server's live sockets through this panel. The node keeps MAX_SOCKETS_PER_SERVER
// places per server for everyone; without a share per user, one user who may only read the
// console could take them all and lock the server's administrators out of it. So a user holds at
// most MAX_SOCKETS_PER_USER of a server's sockets, and its users who are not administrators
// hold at most the places left when ADMIN_SOCKETS are kept back. Administrators are not counted
// here (the node's own bound still holds for them). Counted per panel process, per database.
import { KilnError } from "../../core/errors";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import type { Db } from "../../db";
import type { ProxySocketData } from "./socket-data";

/** One user's sockets to one server (each browser tab on the server's pages holds one). */
export const MAX_SOCKETS_PER_USER = 5;
/** A server's places only administrators' sockets take. */
export const ADMIN_SOCKETS = 5;
const SHARED_SOCKETS = MAX_SOCKETS_PER_SERVER - ADMIN_SOCKETS;

/** The sockets counted, per database, per server, per user. */
const held = new WeakMap<Db, Map<string, Map<string, Set<object>>>>();

/** Whom a socket is counted for: its user, or the user an OAuth2 client acts for. */
function holder(data: ProxySocketData): string {
  const { actor } = data;
  return actor.onBehalfOf != null ? `user:${actor.onBehalfOf}` : `${actor.type}:${actor.id}`;
}

function serverPlaces(data: ProxySocketData): Map<string, Set<object>> {
  const servers = held.get(data.db) ?? new Map<string, Map<string, Set<object>>>();
  held.set(data.db, servers);
  const users = servers.get(data.serverId) ?? new Map<string, Set<object>>();
  servers.set(data.serverId, users);
  return users;
}

/** Throws ErrTooManyRequests when a socket with `data` would pass the user's share or the users' share. */
export function assertSocketPlace(data: ProxySocketData): void {
  if (data.access.admin) return;
  const users = serverPlaces(data);
  const mine = users.get(holder(data))?.size ?? 0;
  let shared = 0;
  for (const sockets of users.values()) shared += sockets.size;
  if (mine >= MAX_SOCKETS_PER_USER) throw new KilnError("ErrTooManyRequests", { max: MAX_SOCKETS_PER_USER }, "too many sockets of this user for this server");
  if (shared >= SHARED_SOCKETS) throw new KilnError("ErrTooManyRequests", { max: SHARED_SOCKETS }, "too many sockets for this server");
}

/**
 * Counts an opened socket, checked again (upgrades checked at once all passed assertSocketPlace
 * before any of them opened); throws its refusal and counts nothing.
 */
export function takeSocketPlace(socket: object, data: ProxySocketData): void {
  assertSocketPlace(data);
  if (data.access.admin) return;
  const users = serverPlaces(data);
  const key = holder(data);
  users.set(key, (users.get(key) ?? new Set()).add(socket));
}

/** The socket closed: its place is free. */
export function releaseSocketPlace(socket: object, data: ProxySocketData): void {
  const servers = held.get(data.db);
  const users = servers?.get(data.serverId);
  const key = holder(data);
  const sockets = users?.get(key);
  if (!sockets?.delete(socket)) return;
  if (sockets.size === 0) users!.delete(key);
  if (users!.size === 0) servers!.delete(data.serverId);
}
