// The Source RCON console (Valve's protocol over TCP, spoken by many game servers): packets of a
// little-endian size, id and type, then a NUL-terminated body and an empty NUL. The node logs in
// with SERVERDATA_AUTH (3); the answer SERVERDATA_AUTH_RESPONSE (2) carries the id back, or -1
// for a wrong password. Commands go as SERVERDATA_EXECCOMMAND (2); replies come as
// SERVERDATA_RESPONSE_VALUE (0) and are shown on the console.
import type { Socket } from "bun";
import { ReconnectingConsole, holdReading, RefusedError, type Link } from "./reconnecting";
import { message } from "../../../core/live/daemon-message";

export const RCON = { AUTH: 3, AUTH_RESPONSE: 2, EXEC: 2, RESPONSE: 0 } as const;
/** Bodies are at most 4096 bytes in Valve's protocol; a larger packet is not RCON. */
const MAX_PACKET = 4096 + 10;
const AUTH_WAIT_MS = 5000;

export interface RconPacket {
  id: number;
  type: number;
  body: string;
}

export function encodeRcon(packet: RconPacket): Buffer {
  const body = Buffer.from(packet.body, "utf8");
  const out = Buffer.alloc(14 + body.length);
  out.writeInt32LE(10 + body.length, 0);
  out.writeInt32LE(packet.id, 4);
  out.writeInt32LE(packet.type, 8);
  body.copy(out, 12);
  return out;
}

/** Reads whole packets out of a byte stream; chunks may split or join packets. */
export class RconReader {
  private pending = Buffer.alloc(0);

  push(chunk: Uint8Array): RconPacket[] {
    this.pending = Buffer.concat([this.pending, chunk]);
    const packets: RconPacket[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32LE(0);
      if (size < 10 || size > MAX_PACKET) throw new Error(`not an RCON packet (size ${size})`);
      if (this.pending.length < 4 + size) break;
      const body = this.pending.subarray(12, 4 + size - 2).toString("utf8");
      packets.push({ id: this.pending.readInt32LE(4), type: this.pending.readInt32LE(8), body });
      this.pending = this.pending.subarray(4 + size);
    }
    return packets;
  }
}

export class RconConsole extends ReconnectingConsole {
  private nextId = 1;

  protected async connect(): Promise<Link> {
    const reader = new RconReader();
    let lost!: () => void;
    const closed = new Promise<void>((resolve) => (lost = resolve));
    let authed!: (ok: boolean) => void;
    const auth = new Promise<boolean>((resolve) => (authed = resolve));
    const authId = this.nextId++;
    const socket: Socket = await Bun.connect({
      hostname: this.target.host,
      port: this.target.port,
      socket: {
        data: (s, data) => {
          let packets: RconPacket[];
          try {
            packets = reader.push(data);
          } catch {
            s.end();
            return;
          }
          for (const packet of packets) {
            if (packet.type === RCON.AUTH_RESPONSE) authed(packet.id === authId);
            else if (packet.type === RCON.RESPONSE && packet.body) holdReading(s, this.sink.output(packet.body.endsWith("\n") ? packet.body : `${packet.body}\n`));
          }
        },
        close: () => {
          authed(false);
          lost();
        },
        error: () => lost(),
      },
    });
    socket.write(encodeRcon({ id: authId, type: RCON.AUTH, body: this.target.password }));
    const ok = await Promise.race([auth, Bun.sleep(AUTH_WAIT_MS).then(() => false)]);
    if (!ok) {
      socket.end();
      throw new RefusedError(message("daemon.rconRefused", { address: this.address }));
    }
    return { write: (line) => void socket.write(encodeRcon({ id: this.nextId++, type: RCON.EXEC, body: line })), close: () => socket.end(), closed };
  }
}
