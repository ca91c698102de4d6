// The telnet console (7 Days to Die): a line-based TCP console. When a password is set, it is
// sent once the server prompts for it (or after a second, as PufferPanel waits); every command is
// a line. Telnet's option negotiation (IAC sequences) is dropped from what is shown.
import type { Socket } from "bun";
import { ReconnectingConsole, holdReading, type Link } from "./reconnecting";

const IAC = 255;
const PROMPT_WAIT_MS = 1000;

/**
 * The text of a chunk without telnet commands (IAC, then a command byte and maybe an option).
 * Written into a byte array of the chunk's size: pushed onto a list of numbers, a game sending
 * megabytes at once held the node's thread for about a second per read.
 */
export function stripTelnetCommands(bytes: Uint8Array): string {
  if (bytes.indexOf(IAC) < 0) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== IAC) out[n++] = bytes[i]!;
    else if (bytes[i + 1] === IAC) out[n++] = bytes[++i]!; // an escaped 255 is data
    else i += (bytes[i + 1] ?? 0) >= 251 && (bytes[i + 1] ?? 0) <= 254 ? 2 : 1; // WILL/WONT/DO/DONT carry an option byte
  }
  return out.toString("utf8", 0, n);
}

export class TelnetConsole extends ReconnectingConsole {
  protected async connect(): Promise<Link> {
    let lost!: () => void;
    const closed = new Promise<void>((resolve) => (lost = resolve));
    let prompted!: () => void;
    const prompt = new Promise<void>((resolve) => (prompted = resolve));
    const socket: Socket = await Bun.connect({
      hostname: this.target.host,
      port: this.target.port,
      socket: {
        data: (socket, data) => {
          const text = stripTelnetCommands(data);
          if (/password/i.test(text)) prompted();
          if (text) holdReading(socket, this.sink.output(text));
        },
        close: () => lost(),
        error: () => lost(),
      },
    });
    if (this.target.password) {
      await Promise.race([prompt, Bun.sleep(PROMPT_WAIT_MS)]);
      socket.write(`${this.target.password}\n`);
    }
    return { write: (line) => void socket.write(`${line}\n`), close: () => socket.end(), closed };
  }
}
