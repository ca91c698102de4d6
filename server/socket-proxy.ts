// The live socket through the panel (spec section 7 "Socket"): the browser's socket at
// /proxy/daemon/socket/{id} is paired with one to the node. Messages the user may not send are
// answered with ErrNoPermission and never reach the node; messages the user may not see (console
// lines, stats, file listings without the matching flag) are dropped on the way back.
import type { ServerWebSocket } from "bun";
import { KilnError } from "../core/errors";
import type { NodeAddress } from "./daemon-client";
import { nodeAuthHeader, nodeBaseUrl } from "./daemon-client";
import { allows, type ServerAccess } from "./services/servers";
import { receiveRequirement, socketRequirement } from "./routes/proxy-rules";

export interface ProxySocketData {
  serverId: string;
  access: ServerAccess;
  node: NodeAddress;
  upstream: WebSocket | null;
  /** what the browser sent before the node's socket opened */
  queue: string[];
}

type Socket = ServerWebSocket<ProxySocketData>;

/** The daemon refuses frames above 4 KiB; the panel lets a little more through to say so itself. */
const MAX_FRAME_BYTES = 64 * 1024;

function refuse(ws: Socket, error: KilnError): void {
  ws.send(JSON.stringify({ type: "error", data: error.toBody().error }));
}

function parse(raw: string): { type: string; data?: Record<string, unknown> } | null {
  try {
    const message = JSON.parse(raw);
    return message && typeof message.type === "string" ? message : null;
  } catch {
    return null;
  }
}

export const socketProxyHandlers: Bun.WebSocketHandler<ProxySocketData> = {
  maxPayloadLength: MAX_FRAME_BYTES,
  idleTimeout: 120,
  sendPings: true,

  open(ws) {
    const { node, serverId } = ws.data;
    const url = `${nodeBaseUrl(node).replace(/^http/, "ws")}/daemon/socket/${encodeURIComponent(serverId)}`;
    // Bun's WebSocket client takes headers: the node token goes where the daemon expects it.
    const upstream = new WebSocket(url, { headers: { authorization: nodeAuthHeader(node) } } as unknown as string[]);
    ws.data.upstream = upstream;
    upstream.onopen = () => {
      for (const text of ws.data.queue.splice(0)) upstream.send(text);
    };
    upstream.onmessage = (event) => {
      const text = String(event.data);
      const message = parse(text);
      if (message && allows(ws.data.access, receiveRequirement(message.type))) ws.send(text);
    };
    upstream.onclose = (event) => {
      // The node went away or refused us: the browser's client reconnects (spec section 4).
      if (ws.readyState === 1) ws.close(event.code === 1000 ? 1000 : 1011, "node socket closed");
    };
  },

  message(ws, raw) {
    const text = String(raw);
    const message = parse(text);
    // A frame that is not a message is the node's to refuse (it answers ErrInvalidJson).
    const needs = message ? socketRequirement(message.type, message.data) : null;
    if (needs && !allows(ws.data.access, needs)) return refuse(ws, new KilnError("ErrNoPermission", { permission: needs, type: message!.type }));
    const upstream = ws.data.upstream;
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(text);
    else ws.data.queue.push(text);
  },

  close(ws) {
    ws.data.upstream?.close();
    ws.data.upstream = null;
  },
};
