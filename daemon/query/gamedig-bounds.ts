// GameDig's readers bounded as the node's own are (./limits): every UDP exchange and TCP exchange
// of a query stops at QUERY_ANSWER_CAP bytes from the game (tooLarge), and a Source answer in
// bzip2-compressed parts is not read at all (badAnswer). GameDig has no such bounds: it kept
// every part of a split answer under the id the game chose (a game flooding parts that never
// complete had the node keep hundreds of MB for the 2 s of a query), joined a TCP answer anew
// with each chunk, and inflated compressed parts whole, in one synchronous call (177 bytes became
// 200 MB and held the node's only thread for seconds). Its HTTP reader (Terraria's TShock, FiveM,
// Palworld…) buffered the whole answer, inflated: it is made again here with got, the library
// GameDig asks, the same options, but stopping at the cap as the bytes arrive and not inflating
// (a game's API answers plain; a gzip bomb stays its compressed size, and unreadable). Set once on
// GameDig's protocol base class, which every protocol extends.
import got from "got";
import { QUERY_ANSWER_CAP, QueryFailure } from "./limits";

type Library = typeof import("gamedig");
type OnPacket = (packet: Buffer) => unknown;
/** What got answers a request with: the response to come, its progress, and a way to end it. */
type PendingRequest = Promise<{ statusCode: number; body: unknown }> & {
  on(event: "downloadProgress", listener: (progress: { transferred: number }) => void): void;
  cancel(): void;
};

/** Where a query hears why it was refused: GameDig hands back its own error for all attempts. */
export interface QueryMark {
  failure?: QueryFailure;
}

interface Protocol {
  options: { kiln?: QueryMark; socketTimeout: number };
  abortedPromise: Promise<never> | null;
  tcpPing(): Promise<unknown>;
  request(this: Protocol, params: Record<string, unknown>): Promise<unknown>;
  goldsrcSplits?: boolean;
  byteorder?: "le" | "be";
  udpSend(this: Protocol, buffer: unknown, onPacket?: OnPacket, onTimeout?: unknown): Promise<unknown>;
  tcpSend(this: Protocol, socket: unknown, buffer: unknown, ondata: OnPacket): Promise<unknown>;
}

/** A Source split part (header -2) whose id has its top bit set: bzip2 (GoldSrc's split format has none). */
function compressedPart(protocol: Protocol, packet: Buffer): boolean {
  if (protocol.goldsrcSplits || packet.length < 8) return false;
  const le = protocol.byteorder !== "be";
  const header = le ? packet.readInt32LE(0) : packet.readInt32BE(0);
  const id = le ? packet.readUInt32LE(4) : packet.readUInt32BE(4);
  return header === -2 && (id & 0x80000000) !== 0;
}

/** Notes why the query is refused, for gamedig-query to say (GameDig answers only "failed"). */
function mark(protocol: Protocol, reason: QueryFailure["reason"]): QueryFailure {
  const failure = new QueryFailure(reason);
  if (protocol.options?.kiln) protocol.options.kiln.failure ??= failure;
  return failure;
}

function refuse(protocol: Protocol, reason: QueryFailure["reason"]): never {
  throw mark(protocol, reason);
}

export function boundGameDig(library: Library): void {
  const valve = library.protocols.valve as { prototype: Protocol };
  const core: Protocol = Object.getPrototypeOf(valve.prototype);
  if (Object.hasOwn(core, "kilnBounded")) return;
  Object.defineProperty(core, "kilnBounded", { value: true });
  const { udpSend, tcpSend } = core;
  core.udpSend = function (buffer, onPacket, onTimeout) {
    let size = 0;
    const checked: OnPacket | undefined = onPacket && ((packet) => {
      size += packet.length;
      if (size > QUERY_ANSWER_CAP) refuse(this, "tooLarge");
      if (this instanceof (valve as unknown as new () => Protocol) && compressedPart(this, packet)) refuse(this, "badAnswer");
      return onPacket(packet);
    });
    return udpSend.call(this, buffer, checked, onTimeout);
  };
  core.tcpSend = function (socket, buffer, ondata) {
    // GameDig hands over all it received so far with each chunk.
    return tcpSend.call(this, socket, buffer, (received) => (received.length > QUERY_ANSWER_CAP ? refuse(this, "tooLarge") : ondata(received)));
  };
  // GameDig's own request (protocols/core.js), with the cap and without inflating.
  core.request = async function (params) {
    await this.tcpPing();
    // GameDig's params are got's options as its protocols write them (url, method, searchParams, json, https…).
    const pending = (got as unknown as (options: Record<string, unknown>) => PendingRequest)({ ...params, decompress: false, timeout: { request: this.options.socketTimeout }, retry: { limit: 0 } });
    pending.on("downloadProgress", ({ transferred }) => {
      if (transferred <= QUERY_ANSWER_CAP) return;
      mark(this, "tooLarge");
      pending.cancel();
    });
    try {
      const body = pending.then((response) => {
        if (response.statusCode !== 200) throw new Error(`Bad status code: ${response.statusCode}`);
        return response.body;
      });
      return await Promise.race([body, ...(this.abortedPromise ? [this.abortedPromise] : [])]);
    } finally {
      pending.cancel();
    }
  };
}
