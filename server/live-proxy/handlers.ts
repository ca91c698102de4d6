// The live socket through the panel: the browser's socket at
// /proxy/daemon/socket/{id} is paired with one to the node. Every browser message passes the
// node's own rules (size, rate, refusals in a row: core/live/guard) and the user's flags before
// it reaches the node; what the node pushes is filtered by the flags and bounded per socket
// (./to-browser); the flags themselves are re-read while the socket is open (./revocation); one
// user holds only a share of a server's sockets (./socket-places).
import { KilnError } from "../../core/errors";
import { MAX_BUFFERED_BYTES, MAX_FRAME_BYTES } from "../../core/live/limits";
import { inProcessLive, nodeAuthorization, nodeBaseUrl, proveNode } from "../daemon-client";
import type { ConnectLive } from "../../core/live/in-process";
import { allows } from "../services/servers";
import { socketActivity, socketRequirement } from "../../core/contract";
import { recordEvent } from "../services/activity/record";
import { OpenSockets } from "./revocation";
import { forwardToBrowser } from "./to-browser";
import { noteNodeWrite } from "../node-writes";
import { isPowerAction } from "../../core/contract/power-actions";
import type { ProxySocket, ProxySocketData } from "./socket-data";
import { releaseSocketPlace, takeSocketPlace } from "./socket-places";

/** Node close codes the browser should see as they are: a normal end, or too many refusals. */
const PASSED_ON_CLOSE = new Set([1000, 1008]);
/** WebSocket's "try again later": a socket opened past its user's share of the server's places. */
const CLOSE_NO_PLACE = 1013;

export function liveProxyHandlers(): Bun.WebSocketHandler<ProxySocketData> {
  const open = new OpenSockets();
  return {
    maxPayloadLength: MAX_FRAME_BYTES,
    // Console output is skipped well before this (./to-browser); this stops the rest (status,
    // file listings asked for and never read) from piling up without end.
    backpressureLimit: 4 * MAX_BUFFERED_BYTES,
    idleTimeout: 120,
    sendPings: true,

    open(ws) {
      // Messages that come before the place is taken wait in the socket's queue for the node.
      void takeSocketPlace(ws, ws.data).then(
        () => {
          // Closed while its place was being taken: close() gives the place back.
          if (ws.readyState !== WebSocket.OPEN) return;
          open.add(ws);
          void connectNode(ws);
        },
        (error: unknown) => {
          if (!(error instanceof KilnError)) {
            console.error("kiln: counting a live socket's place failed", error);
            return ws.close(1011, "internal error");
          }
          ws.send(JSON.stringify(error.toBody()));
          ws.close(CLOSE_NO_PLACE, "too many sockets");
        },
      );
    },

    async message(ws, raw) {
      let text: string;
      let message: ReturnType<typeof ws.data.guard.read>;
      try {
        message = ws.data.guard.read(raw, ws.getBufferedAmount());
        // Every client message type has a rule; one without would be for admins only.
        const needs = socketRequirement(message) ?? "admin";
        if (!allows(ws.data.access, needs)) throw new KilnError("ErrNoPermission", { permission: needs, type: message.type });
        // The node gets the message as checked (fields beside the type), not the bytes as sent.
        text = JSON.stringify(message);
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        // No `type`: PufferPanel's clients ignore it, Kiln's islands show it (core/live LiveRefusal).
        ws.send(JSON.stringify(error.toBody()));
        if (ws.data.guard.refused()) ws.close(1008, "too many refused messages");
        return;
      }
      ws.data.guard.accepted();
      await recordSocketMessage(ws.data, message);
      // A power action changes what the node answers about its servers: no list keeps the old answer.
      if (isPowerAction(message.type)) noteNodeWrite(ws.data.node.id);
      const upstream = ws.data.upstream;
      if (upstream?.readyState === WebSocket.OPEN) upstream.send(text);
      else ws.data.queue.push(text);
    },

    close(ws) {
      void releaseSocketPlace(ws, ws.data).catch((error: unknown) => console.error("kiln: giving a live socket's place back failed", error));
      open.delete(ws);
      ws.data.upstream?.close();
      ws.data.upstream = null;
    },
  };
}

/** A message that changes something is recorded as its socket's user's, when it is passed on to the node. */
async function recordSocketMessage(data: ProxySocketData, message: { type: string } & Record<string, unknown>): Promise<void> {
  const activity = socketActivity(message);
  if (activity) await recordEvent(data.db, activity.event, { serverId: data.serverId, actor: data.actor, ip: data.address, properties: activity.properties });
}

async function connectNode(ws: ProxySocket): Promise<void> {
  const { node, serverId } = ws.data;
  const local = inProcessLive(node);
  if (local) return joinInProcess(ws, local);
  // The node proves itself before its token leaves; one that cannot is as one that does not answer.
  const proven = await proveNode(node).then(() => true, () => false);
  if (ws.readyState !== 1) return;
  if (!proven) return ws.close(1011, "node socket closed");
  const url = `${nodeBaseUrl(node).replace(/^http/, "ws")}/daemon/socket/${encodeURIComponent(serverId)}`;
  // Bun's WebSocket client takes headers: the node token goes where the daemon expects it, signed
  // for this GET of this socket's path.
  const upstream = new WebSocket(url, { headers: { authorization: nodeAuthorization(node, "GET", url.replace(/^ws/, "http")) } } as unknown as string[]);
  ws.data.upstream = upstream;
  upstream.onopen = () => {
    for (const text of ws.data.queue.splice(0)) upstream.send(text);
  };
  upstream.onmessage = (event) => forwardToBrowser(ws, String(event.data));
  upstream.onclose = (event) => {
    // The node went away or refused us: the browser's client reconnects.
    if (ws.readyState === 1) ws.close(PASSED_ON_CLOSE.has(event.code) ? event.code : 1011, "node socket closed");
  };
}

/**
 * The node runs in this process: the browser's socket is joined to its channel directly
 * (core/live/in-process), so a console line reaches the browser in the turn the node read it.
 * What passes is checked as over a WebSocket: the browser's messages above, the node's in
 * forwardToBrowser; a refusal to admit (an unknown server, too many sockets) ends the socket.
 */
function joinInProcess(ws: ProxySocket, connect: ConnectLive): void {
  if (ws.readyState !== 1) return;
  try {
    ws.data.upstream = connect(ws.data.serverId, {
      deliver: (text) => forwardToBrowser(ws, text),
      closed: (code) => {
        ws.data.upstream = null;
        if (ws.readyState === 1) ws.close(PASSED_ON_CLOSE.has(code) ? code : 1011, "node socket closed");
      },
      buffered: () => ws.getBufferedAmount(),
    });
  } catch {
    return ws.close(1011, "node socket closed");
  }
  for (const text of ws.data.queue.splice(0)) ws.data.upstream?.send(text);
}
