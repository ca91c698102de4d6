// The node's SFTP server (ssh2): password logins checked by the panel, one server's folder per
// login, and nothing but the sftp subsystem (no shell, exec or forwarding: ssh2 refuses what has
// no listener). Sessions can be ended from outside when access changes (see disconnect).
// Connections not logged in yet are capped and must finish the handshake in time (see gate).
// Logged-in connections hold places (../kept-places): the node's pool, bounded per account, and
// places each server keeps for its owner and administrators; a connection that stops answering or
// ends without closing gives its place back (see SftpPlaces).
import { createServer, type AddressInfo, type Socket } from "node:net";
import type { AuthContext, ClientInfo, Connection, Server as SshServer } from "ssh2";
import { parseSftpUsername } from "../../core/sftp/username";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { batchWrites } from "./batched-writes";
import { preferGcm } from "./cipher-offer";
import { ConnectionGate, DEFAULT_SFTP_LIMITS, type SftpLimits } from "./gate";
import { KeptPlaces } from "../kept-places";
import type { LoginCheck, SftpLogin } from "./panel-login";
import { SftpSession, type SftpChange } from "./session";
import type { ReportEvent } from "../events/reporter";

/** A client must log in within this time, like sshd's LoginGraceTime (a person may be typing the password). */
export const LOGIN_GRACE_MS = 60_000;
/** Password tries per connection, like sshd's MaxAuthTries. */
export const MAX_AUTH_TRIES = 6;
/** Session channels open at once per connection (clients open one, some two). */
const MAX_CHANNELS = 4;
/**
 * Logged-in connections of one account on the node, whatever servers they are on. Without it a
 * co-user who may only read files over SFTP held all the node's connections (an idle logged-in
 * connection lasts as long as its client answers) and nobody, the servers' owners and
 * administrators included, could connect. A client needs one or two, a transfer program a few more.
 */
export const MAX_CONNECTIONS_PER_USER = 10;

/**
 * Places of logged-in connections. An account's MAX_CONNECTIONS_PER_USER alone left the node to
 * whoever logged in first: 26 accounts with the SFTP right (one person's free accounts, each given
 * a server, or a server's co-users) held the node's connections and its owners and administrators
 * were refused at the door. So logged-in connections share `loggedIn` places, and each server
 * keeps `keptPerServer` more for the logins the panel says are its owner's or an administrator's
 * (`keptLoggedIn` on the node); the node takes as many connections in all as the places, the
 * ones not logged in yet (SftpLimits.unauthenticated) and the kept ones add up to, so a kept place
 * is never refused at the door. Defaults: 64 + 144 + 48 = the 256 the node always took.
 */
export interface SftpPlaces {
  loggedIn: number;
  keptPerServer: number;
  keptLoggedIn: number;
  /**
   * Like sshd's ClientAliveInterval (with ClientAliveCountMax 3): a connection that answers none
   * of three keepalives in a row is ended, so a vanished or silent client does not hold its place.
   */
  keepaliveMs: number;
  /**
   * An ended connection whose socket is still open this long after is destroyed: its place is
   * given back when the socket closes, and a client that never closes its side (or never reads
   * the goodbye) otherwise held it for good.
   */
  closeGraceMs: number;
}

/** A FileZilla-like client opens up to 3 connections to a server; an administrator may be on at the same time. */
export const DEFAULT_SFTP_PLACES: SftpPlaces = { loggedIn: 144, keptPerServer: 4, keptLoggedIn: 48, keepaliveMs: 15_000, closeGraceMs: 10_000 };
/** Unanswered keepalives in a row that end a connection, as sshd's default ClientAliveCountMax. */
const KEEPALIVE_COUNT_MAX = 3;
/** How long stop() waits for connections to close. */
const STOP_WAIT_MS = 3_000;
/** How often sessions of servers deleted on this node are looked for. */
const SWEEP_MS = 5_000;

export interface SftpServerOptions {
  host: string;
  /** 0 picks a free port; `port` on the result says which. */
  port: number;
  hostKey: Buffer;
  manager: ServerManager;
  checkLogin: LoginCheck;
  log: (line: string) => void;
  /** Caps on connections (DEFAULT_SFTP_LIMITS, DEFAULT_SFTP_PLACES for what is not given). */
  limits?: Partial<SftpLimits & SftpPlaces>;
  /** Where each change a session makes is told (the panel's activity log), with who made it. */
  reportEvent?: ReportEvent;
}

/** Which sessions to end: a user's, a server's, or one user's on one server. */
export interface SessionFilter {
  userId?: number;
  serverId?: string;
}

export interface SftpServer {
  port: number;
  /** Ends the matching sessions now; answers how many connections it ended. */
  disconnect(filter: SessionFilter): number;
  /** Logged-in connections. */
  sessionCount(): number;
  stop(): Promise<void>;
}

interface Client {
  connection: Connection;
  socket: Socket;
  address: string;
  tries: number;
  login?: SftpLogin & { serverId: string; server: Server };
  sessions: Set<SftpSession>;
  ended: boolean;
  /** Gives the connection's place back (when its socket closes). */
  givePlace?: () => void;
  /** When its socket was first seen ended on either side and still open (see SftpPlaces.closeGraceMs). */
  closingSince?: number;
}

export async function startSftpServer(options: SftpServerOptions): Promise<SftpServer> {
  const { manager, log } = options;
  const clients = new Set<Client>();
  const limits = { ...DEFAULT_SFTP_LIMITS, ...DEFAULT_SFTP_PLACES, ...options.limits };
  const gate = new ConnectionGate(limits, log);
  const places = new KeptPlaces(() => ({ perServer: Infinity, perNode: limits.loggedIn, keptPerServer: limits.keptPerServer, keptPerNode: limits.keptLoggedIn }));

  const end = (client: Client, reason?: string) => {
    if (client.ended) return;
    client.ended = true;
    if (reason && client.login) log(`kiln daemon: SFTP session of ${client.login.email} on ${client.login.serverId} ended: ${reason}`);
    for (const session of client.sessions) session.dispose();
    client.connection.end();
  };

  /** The server a login is for, while it is still the same one (not deleted, not replaced). */
  const currentServer = (client: Client): Server | null => {
    const login = client.login;
    if (!login) return null;
    try {
      const server = manager.get(login.serverId);
      return server === login.server ? server : null;
    } catch {
      return null;
    }
  };

  async function authenticate(client: Client, ctx: AuthContext): Promise<void> {
    const methods: AuthContext["method"][] = ["password", "keyboard-interactive"];
    if (ctx.method !== "password" && ctx.method !== "keyboard-interactive") return ctx.reject(methods as never);
    if (++client.tries > MAX_AUTH_TRIES) return end(client);
    const password = ctx.method === "password" ? ctx.password : await promptPassword(ctx);
    const parsed = parseSftpUsername(ctx.username);
    let server: Server | undefined;
    try {
      server = parsed ? manager.get(parsed.serverId) : undefined;
    } catch {
      server = undefined;
    }
    // A server this node does not hold needs no question to the panel: the answer is no.
    const login = server && password !== null ? await options.checkLogin({ username: ctx.username, password, address: client.address }) : null;
    if (client.ended) return;
    if (!login || !server || !parsed || manager.list().indexOf(server) < 0) {
      log(`kiln daemon: SFTP login refused for ${JSON.stringify(ctx.username.slice(0, 200))} from ${client.address}`);
      return ctx.reject(methods as never);
    }
    // Counted and taken in one synchronous step after the panel's answer: logins checked at once cannot all pass.
    let held = 0;
    for (const other of clients) if (!other.ended && other.login?.userId === login.userId) held++;
    const taken = held < MAX_CONNECTIONS_PER_USER ? places.take(parsed.serverId, login.owners) : null;
    if (!taken || !("give" in taken)) {
      const why = taken ? `the node's ${limits.loggedIn} places are taken` : `${MAX_CONNECTIONS_PER_USER} connections of this account are open`;
      log(`kiln daemon: SFTP login of ${login.email} on ${parsed.serverId} refused: ${why}`);
      // Refused with no method left, so the client says so, then ended (another try would be refused alike).
      ctx.reject([] as never);
      return end(client);
    }
    client.givePlace = taken.give;
    client.login = { ...login, serverId: parsed.serverId, server };
    log(`kiln daemon: SFTP login of ${login.email} on ${parsed.serverId} from ${client.address}${login.canWrite ? "" : " (read-only)"}`);
    gate.loggedIn(client.socket);
    ctx.accept();
  }

  function onConnection(connection: Connection, info: ClientInfo): void {
    const socket = socketOf(connection);
    if (!socket) {
      // Without its socket the connection cannot leave the gate's count when it logs in.
      log("kiln daemon: SFTP connection refused: this ssh2 version does not expose the socket");
      return void connection.end();
    }
    batchWrites(socket);
    preferGcm(connection, info.header.versions.software);
    const client: Client = { connection, socket, address: info.ip, tries: 0, sessions: new Set(), ended: false };
    clients.add(client);
    connection.once("handshake", () => gate.handshakeDone(socket));
    const grace = setTimeout(() => client.login || end(client), LOGIN_GRACE_MS);
    connection.on("authentication", (ctx) => {
      authenticate(client, ctx).catch((error) => {
        log(`kiln daemon: SFTP login check failed: ${(error as Error).message}`);
        ctx.reject();
      });
    });
    connection.on("ready", () => {
      clearTimeout(grace);
      let channels = 0;
      connection.on("session", (accept, reject) => {
        // Open channels cost memory: a client needs one, some open two.
        if (channels >= MAX_CHANNELS || client.ended) return reject();
        channels++;
        const session = accept();
        session.on("close", () => channels--);
        session.on("sftp", (acceptSftp, rejectSftp) => {
          if (client.ended) return rejectSftp();
          const sftp = acceptSftp();
          const jail = () => currentServer(client)?.jail ?? null;
          const denylist = () => currentServer(client)?.denylist ?? null;
          const login = client.login;
          const changed = login && options.reportEvent ? (event: SftpChange, properties: Record<string, unknown>) => options.reportEvent!({ serverId: login.serverId, event, at: Date.now(), properties, actor: { type: "user", id: login.userId } }) : undefined;
          const held = () => currentServer(client)?.changes.heldBecause() ?? null;
          const handler = new SftpSession(sftp, { jail, denylist, canWrite: login?.canWrite === true, held, end: (reason) => end(client, reason), log, changed });
          client.sessions.add(handler);
          sftp.on("close", () => client.sessions.delete(handler));
        });
      });
    });
    // Resets and half-done handshakes are everyday events on a public port, not worth a line; a
    // logged-in client that answered no keepalive is (ssh2 has ended its connection already).
    connection.on("error", (error: Error & { level?: string }) => {
      if (error.level === "client-timeout") end(client, "it answered no keepalive");
    });
    connection.on("close", () => {
      clearTimeout(grace);
      client.givePlace?.();
      client.ended = true;
      for (const session of client.sessions) session.dispose();
      clients.delete(client);
    });
  }

  // ssh2 costs about 20 MB once loaded, which an idle node should not pay: the port is a plain
  // listener, and ssh2 is loaded when the first client connects (its socket waits, paused).
  let ssh: Promise<SshServer> | null = null;
  const sshServer = () =>
    (ssh ??= import("ssh2").then(({ Server }) => new Server({ hostKeys: [options.hostKey], ident: "Kiln", keepaliveInterval: limits.keepaliveMs, keepaliveCountMax: KEEPALIVE_COUNT_MAX }, onConnection)));
  const listener = createServer({ pauseOnConnect: true }, (socket) => {
    if (!gate.admit(socket)) return;
    sshServer().then(
      (server) => server.injectSocket(socket),
      (error) => {
        log(`kiln daemon: the SFTP server cannot start: ${(error as Error).message}`);
        socket.destroy();
      },
    );
  });
  listener.maxConnections = limits.unauthenticated + limits.loggedIn + limits.keptLoggedIn;

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  listener.on("error", (error: Error) => log(`kiln daemon: SFTP server error: ${error.message}`));

  // Deleting a server on this node ends its sessions; requests in between are refused already.
  // A socket ended on either side (by us, by ssh2 after unanswered keepalives or a protocol error,
  // or by the client) closes once both sides are done, which a client that stops reading, or never
  // closes its side, puts off for good: past the grace it is destroyed.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const client of clients) {
      if (client.login && !currentServer(client)) end(client, "the server was deleted");
      const socket = client.socket;
      if (socket.destroyed || !(socket.writableEnded || socket.readableEnded)) continue;
      client.closingSince ??= now;
      if (now - client.closingSince >= limits.closeGraceMs) socket.destroy();
    }
  }, Math.min(SWEEP_MS, limits.closeGraceMs));
  sweep.unref();

  return {
    port: (listener.address() as AddressInfo).port,
    disconnect(filter) {
      let ended = 0;
      for (const client of clients) {
        const login = client.login;
        if (!login || client.ended) continue;
        if (filter.userId !== undefined && login.userId !== filter.userId) continue;
        if (filter.serverId !== undefined && login.serverId !== filter.serverId) continue;
        end(client, "access changed");
        ended++;
      }
      return ended;
    },
    sessionCount: () => [...clients].filter((c) => c.login && !c.ended).length,
    async stop() {
      clearInterval(sweep);
      const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
      for (const client of clients) end(client);
      gate.closeAll();
      // A client that never answers the goodbye must not hold the daemon's shutdown.
      await Promise.race([closed, Bun.sleep(STOP_WAIT_MS)]);
    },
  };
}

/** The socket under an ssh2 connection (ssh2 keeps it as `_sock`; its events do not pass it on). */
function socketOf(connection: Connection): Socket | null {
  return (connection as unknown as { _sock?: Socket })._sock ?? null;
}

/** keyboard-interactive, as some clients (FileZilla) prefer: one prompt, the password. */
function promptPassword(ctx: AuthContext): Promise<string | null> {
  if (ctx.method !== "keyboard-interactive") return Promise.resolve(null);
  return new Promise((resolve) => ctx.prompt([{ prompt: "Password: ", echo: false }], (answers) => resolve(answers[0] ?? null)));
}
