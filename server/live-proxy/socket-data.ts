// What the panel keeps per browser socket at /proxy/daemon/socket/{id} (set by the upgrade route
// in routes/proxy.ts, used by ./handlers).
import type { ServerWebSocket } from "bun";
import type { Db } from "../../db";
import { SocketGuard } from "../../core/live/guard";
import type { LiveLink } from "../../core/live/in-process";
import type { NodeAddress } from "../daemon-client";
import type { ServerAccess } from "../services/servers";
import { currentActor, currentAddress, type Actor } from "../services/activity/actor";
import { assertSocketPlace } from "./socket-places";

export interface ProxySocketData {
  db: Db;
  serverId: string;
  /** SHA-256 of the session token the socket was opened with, re-checked while it is open (./revocation). */
  sessionHash: string;
  /** What the user may do on the server: replaced when their flags change. */
  access: ServerAccess;
  node: NodeAddress;
  /** The node's socket: a WebSocket, or the link to a node in this process (core/live/in-process). */
  upstream: LiveLink | null;
  /** What the browser sent before the node's socket opened. */
  queue: string[];
  /** Size, rate and refusal rules, the same as the node's (core/live/guard). */
  guard: SocketGuard;
  /** Console bytes not sent because the browser was not reading; a console line says so later. */
  skipped: number;
  /** Who opened it and from where: what its messages change is recorded as theirs. */
  actor: Actor;
  address: string | null;
}

export type ProxySocket = ServerWebSocket<ProxySocketData>;

/** What a socket about to be opened will keep; throws ErrTooManyRequests when its user may not open another (./socket-places). */
export async function proxySocketData(db: Db, serverId: string, sessionHash: string, access: ServerAccess, node: NodeAddress): Promise<ProxySocketData> {
  // Opened within the upgrade request: its caller and address are the request's.
  const data: ProxySocketData = { db, serverId, sessionHash, access, node, upstream: null, queue: [], guard: new SocketGuard(), skipped: 0, actor: currentActor(), address: currentAddress() };
  // Refused before the upgrade, the client gets an HTTP answer (429) instead of a socket.
  await assertSocketPlace(data);
  return data;
}
