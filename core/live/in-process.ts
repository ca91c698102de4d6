// A live socket between the panel's proxy and a node in the same process (`kiln panel`'s local
// node): no connection between them, each side calls the other's, so what the node sends reaches
// the browser's socket in the turn it was written (over a WebSocket it took two more turns of the
// one event loop, each behind whatever else was ready: under a flood of page requests that was
// most of a line's delay; docs/benchmarks.md, "What a console line waits for"). The node keeps its
// own admission, limits and handlers; the panel keeps its checks of every message both ways.

/** The panel's end, as the node sees it. */
export interface LivePeer {
  /** A message from the node, as it would have come over the socket. */
  deliver(text: string): void;
  /** The node ended the socket (a WebSocket close code and reason). */
  closed(code: number, reason: string): void;
  /** What the browser's socket holds unsent: the node's console backpressure reads it. */
  buffered(): number;
}

/** The node's end, as the panel sees it: what it needs of a WebSocket client. */
export interface LiveLink {
  readonly readyState: number;
  send(text: string): void;
  close(): void;
}

/** Opens a socket to `serverId` on the node; throws the node's refusal (an unknown server, too many sockets). */
export type ConnectLive = (serverId: string, peer: LivePeer) => LiveLink;

/** WebSocket's readyState values the link takes. */
export const LINK_OPEN = 1 as const;
export const LINK_CLOSED = 3 as const;
