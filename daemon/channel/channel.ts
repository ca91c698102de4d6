// The live socket per server: clients send power actions, console
// commands, stat/status/replay requests and file actions; the daemon pushes status changes
// and console output as they happen. Bounded per socket and per server (./limits); a replay also
// by what it costs the node (./replay).
import type { ServerWebSocket } from "bun";
import { KilnError } from "../../core/errors";
import { epochMillis, type LiveMessage, type LiveRefusal } from "../../core/live";
import { SocketGuard, type ClientMessage } from "../../core/live/guard";
import { skippedNotice } from "../../core/live/limits";
import { english } from "../../locales/english";
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import { listFolder } from "../files/listing";
import { makeFolder, removePath } from "../files/operations";
import { serverRooted } from "../../core/files/server-rooted";
import * as LIMITS from "./limits";
import { KEEP_CHANGED, keepsChanged } from "../../core/install";
import { LINK_CLOSED, LINK_OPEN, type LiveLink, type LivePeer } from "../../core/live/in-process";
import { ConsoleReplays } from "./replay";

export interface SocketData {
  serverId: string;
  cleanups: Array<() => void>;
  guard: SocketGuard;
  /** Console bytes not sent because the client was not reading; reported once it reads again. */
  skipped: number;
}

/**
 * What the channel uses of a socket: Bun's WebSocket, or the panel's link in this process
 * (connect), which has only these; the type keeps the channel from asking either for more.
 */
type Socket = Pick<ServerWebSocket<SocketData>, "data" | "readyState" | "send" | "close" | "getBufferedAmount">;

export class Channel {
  private readonly perServer = new Map<string, Set<Socket>>();
  private total = 0;
  private lastConsole = { text: "", epoch: -1, frame: "" };
  /** What console reads cost the node, shared with GET …/console (daemon/routes/servers). */
  readonly replays = new ConsoleReplays();

  constructor(private readonly manager: ServerManager) {}

  /** Checked before the upgrade, so a refused client gets an HTTP error instead of a socket. */
  admit(serverId: string): SocketData {
    this.manager.get(serverId);
    if (this.total >= LIMITS.MAX_SOCKETS || (this.perServer.get(serverId)?.size ?? 0) >= LIMITS.MAX_SOCKETS_PER_SERVER) {
      throw new KilnError("ErrTooManyRequests", { max: LIMITS.MAX_SOCKETS_PER_SERVER }, "too many sockets for this server");
    }
    return {
      serverId,
      cleanups: [],
      guard: new SocketGuard(),
      skipped: 0,
    };
  }

  /** Bun.serve's websocket handlers. */
  readonly handlers: Bun.WebSocketHandler<SocketData> = {
    maxPayloadLength: LIMITS.MAX_FRAME_BYTES,
    idleTimeout: 120,
    sendPings: true,
    open: (ws) => this.open(ws),
    message: (ws, message) => void this.message(ws, message),
    close: (ws) => this.close(ws),
  };

  /**
   * A socket for the panel's proxy in this very process (core/live/in-process): admitted, opened
   * and handled as a WebSocket is, with what the node sends handed to `peer` at once. Throws the
   * admission's refusal.
   */
  connect(serverId: string, peer: LivePeer): LiveLink {
    const data = this.admit(serverId);
    let state: typeof LINK_OPEN | typeof LINK_CLOSED = LINK_OPEN;
    const end = (): boolean => {
      if (state !== LINK_OPEN) return false;
      state = LINK_CLOSED;
      this.close(socket);
      return true;
    };
    const socket: Socket = {
      data,
      get readyState() {
        return state;
      },
      send: (text: string) => {
        if (state !== LINK_OPEN) return 0;
        // The panel's trouble stays the panel's: a server's output goes on to its other sockets.
        try {
          peer.deliver(text);
        } catch (error) {
          console.error(error);
        }
        return text.length;
      },
      getBufferedAmount: () => peer.buffered(),
      close: (code = 1000, reason = "") => {
        if (end()) peer.closed(code, reason);
      },
    };
    this.open(socket);
    return {
      get readyState() {
        return state;
      },
      send: (text: string) => {
        if (state !== LINK_OPEN) return;
        // What Bun's WebSocket server refuses for a frame too large (maxPayloadLength).
        if (Buffer.byteLength(text) > LIMITS.MAX_FRAME_BYTES) return socket.close(1009, "message too big");
        void this.message(socket, text);
      },
      close: () => void end(),
    };
  }

  private open(ws: Socket): void {
    let server: Server;
    try {
      server = this.manager.get(ws.data.serverId);
    } catch {
      ws.close(1011, "server gone");
      return;
    }
    const set = this.perServer.get(server.id) ?? new Set();
    set.add(ws);
    this.perServer.set(server.id, set);
    this.total++;
    ws.data.cleanups.push(
      server.onStatus((status) => send(ws, { type: "status", data: status })),
      server.players.onChange((players) => send(ws, { type: "players", data: players })),
      server.console.subscribe((text, epoch) => this.sendConsole(ws, text, epoch)),
    );
    send(ws, { type: "status", data: server.status() });
    const players = server.players.current();
    if (players) send(ws, { type: "players", data: players });
  }

  private close(ws: Socket): void {
    for (const cleanup of ws.data.cleanups.splice(0)) cleanup();
    const set = this.perServer.get(ws.data.serverId);
    if (set?.delete(ws)) this.total--;
    if (set?.size === 0) this.perServer.delete(ws.data.serverId);
  }

  private async message(ws: Socket, raw: string | Buffer): Promise<void> {
    try {
      await this.handle(ws, ws.data.guard.read(raw, ws.getBufferedAmount()));
      ws.data.guard.accepted();
    } catch (error) {
      const kiln = error instanceof KilnError ? error : new KilnError("ErrUnknownError", undefined, "internal error");
      if (kiln.code === "ErrUnknownError") console.error(error);
      // No `type`: PufferPanel's clients ignore it, Kiln's islands show it (core/live LiveRefusal).
      send(ws, kiln.toBody());
      if (ws.data.guard.refused()) ws.close(1008, "too many refused messages");
    }
  }

  private async handle(ws: Socket, message: ClientMessage): Promise<void> {
    const server = this.manager.get(ws.data.serverId);
    switch (message.type) {
      case "status":
        return send(ws, { type: "status", data: server.status() });
      case "stat":
        return send(ws, { type: "stat", data: await server.stats() });
      case "replay": {
        const frame = this.replays.frame(server.console, epochMillis(message.since));
        if (ws.readyState === 1) ws.send(frame);
        return;
      }
      case "console": {
        const command = typeof message.command === "string" ? message.command : "";
        if (!command.trim()) throw new KilnError("ErrFieldRequired", { field: "command" });
        return server.sendCommand(command);
      }
      case "file":
        return this.file(ws, server, message);
      default:
        return server.power(message.type, { keepChanged: keepsChanged(message[KEEP_CHANGED]) });
    }
  }

  private async file(ws: Socket, server: Server, message: ClientMessage): Promise<void> {
    const path = serverRooted(typeof message.path === "string" ? message.path : "");
    if (message.action === "create" || message.action === "delete") {
      // A change like any other door's: refused while the server is held for a move.
      const end = server.changes.begin();
      try {
        if (message.action === "create") {
          server.denylist.check(server.jail, path);
          makeFolder(server.jail, path);
        } else removePath(server.jail, path);
      } finally {
        end();
      }
    } else if (message.action !== "get") throw new KilnError("ErrFieldRequired", { field: "action" });
    const folder = message.action === "get" ? path : path.split("/").slice(0, -1).join("/");
    send(ws, { type: "file", data: await listFolder(server.jail, folder) });
  }

  private sendConsole(ws: Socket, text: string, epoch: number): void {
    if (ws.getBufferedAmount() > LIMITS.MAX_BUFFERED_BYTES) {
      ws.data.skipped += Buffer.byteLength(text);
      return;
    }
    if (ws.data.skipped > 0) {
      const notice = `${skippedNotice(ws.data.skipped, english)}${text}`;
      ws.data.skipped = 0;
      return send(ws, { type: "console", data: { logs: notice, epoch } });
    }
    if (ws.readyState === 1) ws.send(this.consoleFrame(text, epoch));
  }

  /** Every socket of a server gets the same chunk in turn: it is written as JSON once, not once per socket. */
  private consoleFrame(text: string, epoch: number): string {
    const last = this.lastConsole;
    if (last.text !== text || last.epoch !== epoch) this.lastConsole = { text, epoch, frame: JSON.stringify({ type: "console", data: { logs: text, epoch } }) };
    return this.lastConsole.frame;
  }
}

function send(ws: Socket, message: LiveMessage<string, unknown> | LiveRefusal): void {
  if (ws.readyState === 1) ws.send(JSON.stringify(message));
}
