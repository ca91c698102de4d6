// GameDig's readers bounded as the node's own are (./limits): every UDP exchange and TCP exchange
// of a query stops at QUERY_ANSWER_CAP bytes from the game (tooLarge), and a Source answer in
// bzip2-compressed parts is not read at all (badAnswer). GameDig has no such bounds: it kept
// every part of a split answer under the id the game chose (a game flooding parts that never
// complete had the node keep hundreds of MB for the 2 s of a query), joined a TCP answer anew
// with each chunk, and inflated compressed parts whole, in one synchronous call (177 bytes became
// 200 MB and held the node's only thread for seconds). Set once on GameDig's protocol base class,
// which every protocol extends. Its HTTP reader (Terraria's TShock, FiveM…) is not bounded here.
import { QUERY_ANSWER_CAP, QueryFailure } from "./limits";

type Library = typeof import("gamedig");
type OnPacket = (packet: Buffer) => unknown;

/** Where a query hears why it was refused: GameDig hands back its own error for all attempts. */
export interface QueryMark {
  failure?: QueryFailure;
}

interface Protocol {
  options: { kiln?: QueryMark };
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

function refuse(protocol: Protocol, reason: QueryFailure["reason"]): never {
  const failure = new QueryFailure(reason);
  if (protocol.options?.kiln) protocol.options.kiln.failure ??= failure;
  throw failure;
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
}
