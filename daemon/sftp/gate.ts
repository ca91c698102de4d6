// Connections that have not logged in yet cost an attacker nothing: 260 idle TCP connections that
// never finished the SSH handshake once filled the node's connection limit and locked real users
// out. So they are capped per address (see addressKey) and overall, and one that has not finished
// the SSH handshake (version and key exchange, no person takes part) within handshakeMs is closed.
// A connection leaves the count when it logs in; its slot is released when its socket closes,
// however that happens (client, deadline, error, stop), and never twice.
import type { Socket } from "node:net";
import { addressKey } from "./address";

export interface SftpLimits {
  /** Connections not logged in yet from one address (an IPv6 /64 counts as one). */
  unauthenticatedPerAddress: number;
  /** Connections not logged in yet, from everywhere. */
  unauthenticated: number;
  /** Time from connecting to the end of the SSH handshake. */
  handshakeMs: number;
}

/**
 * Like sshd's MaxStartups and a tighter LoginGraceTime for the part no person takes: a client
 * (FileZilla opens a few connections at once) logs in within a second, so 10 from one address is
 * plenty, and 64 overall keeps the rest of the node's 256 connections for logged-in users.
 */
export const DEFAULT_SFTP_LIMITS: SftpLimits = { unauthenticatedPerAddress: 10, unauthenticated: 64, handshakeMs: 10_000 };

/** Refusals are logged at most this often: a flood of connections must not flood the log too. */
const REFUSAL_LOG_MS = 60_000;

interface Pending {
  key: string;
  deadline: ReturnType<typeof setTimeout> | undefined;
}

export class ConnectionGate {
  private readonly pending = new Map<Socket, Pending>();
  private readonly perAddress = new Map<string, number>();
  private refused = 0;
  private lastRefusalLog = 0;

  constructor(
    private readonly limits: SftpLimits,
    private readonly log: (line: string) => void,
  ) {}

  /** Counts a new connection and starts its handshake deadline; over a cap it is closed at once (false). */
  admit(socket: Socket): boolean {
    const key = addressKey(socket.remoteAddress);
    const fromHere = this.perAddress.get(key) ?? 0;
    const overAddress = fromHere >= this.limits.unauthenticatedPerAddress;
    if (socket.destroyed || overAddress || this.pending.size >= this.limits.unauthenticated) {
      if (!socket.destroyed) this.refuse(key, overAddress);
      socket.destroy();
      return false;
    }
    this.perAddress.set(key, fromHere + 1);
    this.pending.set(socket, { key, deadline: setTimeout(() => socket.destroy(), this.limits.handshakeMs) });
    socket.once("close", () => this.release(socket));
    return true;
  }

  /** The key exchange is done: from here the login grace applies (a person may be typing a password). */
  handshakeDone(socket: Socket): void {
    const pending = this.pending.get(socket);
    if (pending) clearTimeout(pending.deadline);
  }

  /** Logged in: the connection no longer counts against the caps. */
  loggedIn(socket: Socket): void {
    this.release(socket);
  }

  /** Closes every connection not logged in yet (the server is stopping). */
  closeAll(): void {
    for (const socket of [...this.pending.keys()]) socket.destroy();
  }

  private release(socket: Socket): void {
    const pending = this.pending.get(socket);
    if (!pending) return;
    this.pending.delete(socket);
    clearTimeout(pending.deadline);
    const left = (this.perAddress.get(pending.key) ?? 1) - 1;
    if (left > 0) this.perAddress.set(pending.key, left);
    else this.perAddress.delete(pending.key);
  }

  private refuse(key: string, overAddress: boolean): void {
    this.refused++;
    const now = Date.now();
    if (now - this.lastRefusalLog < REFUSAL_LOG_MS) return;
    const which = overAddress ? `${this.limits.unauthenticatedPerAddress} connections from ${key}` : `${this.limits.unauthenticated} connections in all`;
    this.log(`kiln daemon: SFTP connections refused: ${which} are already waiting to log in (${this.refused} refused since the last such line)`);
    this.lastRefusalLog = now;
    this.refused = 0;
  }
}
