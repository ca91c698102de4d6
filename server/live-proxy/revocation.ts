// Open sockets follow the user's rights as they change. Each socket's session and its access to
// the server are re-read from the database: a session that ended (logout, expiry, password
// change, account deleted or disabled, an OAuth2 client deleted) or access that is gone (removed
// from the server, admin scope taken, server deleted) closes the socket; lowered flags replace
// what it carries, so from then on it sends and receives only what the new flags allow. Reading
// the database catches every way rights can change without each of them having to tell the proxy.
// It is read at once after every request that changes state (recheckOpenSockets, called by
// middleware/recheck-sockets before the answer leaves), so a command sent the moment a logout
// has answered never reaches the node; and every RECHECK_MS while a socket is open, for what no
// request of this panel does (a session expiring, `kiln user` run in another process). The rule
// itself is ./recheck's, shared with downloads streaming through the proxy (./open-streams),
// which are rechecked whenever the sockets are.
import type { Db } from "../../db";
import { onSessionRotated } from "../services/sessions";
import { flagsToPermissions, type ServerAccess } from "../services/servers";
import type { ProxySocket } from "./socket-data";
import { recheck, RECHECK_MS, RECHECK_TOPIC, type Verdict } from "./recheck";
import { sweepOpenStreams } from "./open-streams";

export { RECHECK_MS };

/** What a socket whose rights are gone holds while its close is under way: nothing passes either way. */
const NO_ACCESS: ServerAccess = { view: false, admin: false, permissions: flagsToPermissions([]) };

/** Every OpenSockets of this process (one per served panel), for recheckOpenSockets. */
const everyOpen = new Set<OpenSockets>();

/** Console sockets open now across this process's panels (kiln_panel_open_sockets). */
export function openSocketCount(): number {
  let count = 0;
  for (const open of everyOpen) count += open.size;
  return count;
}

/**
 * Re-reads the rights of every open socket and every download streaming through the proxy
 * (./open-streams) now (after a request that changed state), and has every other panel process
 * on `db` do the same.
 */
export async function recheckOpenSockets(db: Db): Promise<void> {
  for (const open of everyOpen) await open.sweep();
  await sweepOpenStreams();
  if (db.$kiln.dialect === "postgres") await db.$kiln.announce(RECHECK_TOPIC);
}

export class OpenSockets {
  private readonly sockets = new Set<ProxySocket>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopFollowingRenewals: (() => void) | null = null;

  get size(): number {
    return this.sockets.size;
  }

  add(ws: ProxySocket): void {
    this.sockets.add(ws);
    if (this.timer) return;
    everyOpen.add(this);
    this.timer = setInterval(() => this.sweep(), RECHECK_MS);
    this.timer.unref?.();
    // A renewal replaces the token but not the login: the socket moves to the new token.
    const followRenewals = onSessionRotated((oldHash, newHash) => {
      for (const socket of this.sockets) if (socket.data.sessionHash === oldHash) socket.data.sessionHash = newHash;
    });
    // Another panel process on the database changed state: the rights are read again now.
    const hearOthers = ws.data.db.$kiln.changes.on((topic) => topic === RECHECK_TOPIC && void this.sweep());
    this.stopFollowingRenewals = () => {
      followRenewals();
      hearOthers();
    };
  }

  delete(ws: ProxySocket): void {
    this.sockets.delete(ws);
    if (this.sockets.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    everyOpen.delete(this);
    this.stopFollowingRenewals?.();
    this.stopFollowingRenewals = null;
  }

  /** One look-up per distinct session and server, however many sockets share them. */
  async sweep(): Promise<void> {
    const verdicts = new Map<string, Verdict>();
    for (const ws of [...this.sockets]) {
      const key = `${ws.data.sessionHash} ${ws.data.serverId}`;
      let verdict = verdicts.get(key);
      try {
        verdict ??= await recheck(ws.data.db, ws.data.sessionHash, ws.data.serverId, "view");
      } catch (error) {
        // Rights that cannot be read are not assumed: the client reconnects and is authorized afresh.
        console.error(error);
        verdict = { code: 1011, reason: "access check failed" };
      }
      verdicts.set(key, verdict);
      if ("code" in verdict) revoke(ws, verdict.code, verdict.reason);
      else [ws.data.access, ws.data.sessionHash] = [verdict.access, verdict.sessionHash];
    }
  }
}

/**
 * Ends a socket whose rights are gone. Its close handshake takes a moment, and a frame the
 * browser sent meanwhile still arrives: with no access left, the message handler refuses it and
 * nothing the node pushes is passed on; the node's socket, and what waited for it, go now.
 */
function revoke(ws: ProxySocket, code: number, reason: string): void {
  ws.data.access = NO_ACCESS;
  ws.data.queue.length = 0;
  ws.data.upstream?.close();
  ws.data.upstream = null;
  ws.close(code, reason);
}
