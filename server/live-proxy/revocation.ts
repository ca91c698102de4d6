// Open sockets follow the user's rights as they change. While any socket is open, one timer
// re-reads each socket's session and its access to the server every RECHECK_MS: a session that
// ended (logout, expiry, password change, account deleted or disabled) or access that is gone
// (removed from the server, server deleted) closes the socket; lowered flags replace what it
// carries, so from then on it sends and receives only what the new flags allow. Reading the
// database catches every way rights can change without each of them having to tell the proxy.
import { CLOSE_ACCESS_REVOKED, CLOSE_SESSION_ENDED } from "../../core/live";
import { KilnError } from "../../core/errors";
import type { Db } from "../../db";
import { findSessionUserByHash, onSessionRotated } from "../services/sessions";
import { authorize, type ServerAccess } from "../services/servers";
import type { ProxySocket } from "./socket-data";

/** Often enough that a revocation takes effect well within a second. */
export const RECHECK_MS = 400;

type Verdict = { access: ServerAccess } | { code: number; reason: string };

function recheck(db: Db, sessionHash: string, serverId: string): Verdict {
  const user = findSessionUserByHash(db, sessionHash);
  if (!user) return { code: CLOSE_SESSION_ENDED, reason: "session ended" };
  try {
    return { access: authorize(db, user, serverId, "view") };
  } catch (error) {
    if (error instanceof KilnError) return { code: CLOSE_ACCESS_REVOKED, reason: "access revoked" };
    throw error;
  }
}

export class OpenSockets {
  private readonly sockets = new Set<ProxySocket>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopFollowingRenewals: (() => void) | null = null;

  add(ws: ProxySocket): void {
    this.sockets.add(ws);
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), RECHECK_MS);
    this.timer.unref?.();
    // A renewal replaces the token but not the login: the socket moves to the new token.
    this.stopFollowingRenewals = onSessionRotated((oldHash, newHash) => {
      for (const socket of this.sockets) if (socket.data.sessionHash === oldHash) socket.data.sessionHash = newHash;
    });
  }

  delete(ws: ProxySocket): void {
    this.sockets.delete(ws);
    if (this.sockets.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.stopFollowingRenewals?.();
    this.stopFollowingRenewals = null;
  }

  /** One look-up per distinct session and server, however many sockets share them. */
  private sweep(): void {
    const verdicts = new Map<string, Verdict>();
    for (const ws of [...this.sockets]) {
      const key = `${ws.data.sessionHash} ${ws.data.serverId}`;
      let verdict = verdicts.get(key);
      try {
        verdict ??= recheck(ws.data.db, ws.data.sessionHash, ws.data.serverId);
      } catch (error) {
        // Rights that cannot be read are not assumed: the client reconnects and is authorized afresh.
        console.error(error);
        verdict = { code: 1011, reason: "access check failed" };
      }
      verdicts.set(key, verdict);
      if ("code" in verdict) ws.close(verdict.code, verdict.reason);
      else ws.data.access = verdict.access;
    }
  }
}
