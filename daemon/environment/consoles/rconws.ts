// The WebSocket RCON console (Rust's WebRCON): ws://host:port/<password>; commands and replies
// are JSON messages {Identifier, Message, Name}; each reply's Message shows on the console.
import { message as daemonMessage } from "../../../core/live/daemon-message";
import { OUTPUT_RATE } from "../../servers/output-throttle";
import { ReconnectingConsole, holdReading, type Link } from "./reconnecting";

/**
 * The largest message read (a WebRCON reply is a few KiB): Bun's client takes up to 128 MB, and
 * each was parsed as JSON on the node's thread before anything looked at it, so a game sending
 * 100 MB messages held that thread a second each. A larger one is dropped unparsed, and said,
 * and nothing more is read for as long as its size takes at the output's rate: receiving such a
 * message still costs Bun's client its time, so the game may send one now and then, not a stream.
 */
export const MAX_RCONWS_MESSAGE = 256 * 1024;

export class RconWsConsole extends ReconnectingConsole {
  private nextId = 1;

  protected async connect(): Promise<Link> {
    const host = this.target.host.includes(":") ? `[${this.target.host}]` : this.target.host;
    const socket = new WebSocket(`ws://${host}:${this.target.port}/${encodeURIComponent(this.target.password)}`);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("cannot connect")), { once: true });
      socket.addEventListener("close", () => reject(new Error("closed")), { once: true });
    });
    const closed = new Promise<void>((resolve) => socket.addEventListener("close", () => resolve(), { once: true }));
    // Bun's client can stop reading (pause/resume), though the WebSocket type does not say so.
    const pausable = socket as unknown as Parameters<typeof holdReading>[0];
    socket.addEventListener("message", (event) => {
      const data = typeof event.data === "string" ? event.data : String(event.data);
      if (data.length > MAX_RCONWS_MESSAGE) {
        this.sink.log(daemonMessage("daemon.outputDropped", { count: data.length }));
        return holdReading(pausable, Math.ceil((data.length / OUTPUT_RATE) * 1000));
      }
      let message: unknown;
      try {
        message = JSON.parse(data).Message;
      } catch {
        return;
      }
      if (typeof message === "string" && message !== "") holdReading(pausable, this.sink.output(message.endsWith("\n") ? message : `${message}\n`));
    });
    return {
      write: (line) => socket.send(JSON.stringify({ Identifier: this.nextId++, Message: line, Name: "WebRcon" })),
      close: () => socket.close(),
      closed,
    };
  }
}
