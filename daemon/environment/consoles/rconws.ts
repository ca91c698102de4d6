// The WebSocket RCON console (Rust's WebRCON): ws://host:port/<password>; commands and replies
// are JSON messages {Identifier, Message, Name}; each reply's Message shows on the console.
import { ReconnectingConsole, type Link } from "./reconnecting";

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
    socket.addEventListener("message", (event) => {
      let message: unknown;
      try {
        message = JSON.parse(String(event.data)).Message;
      } catch {
        return;
      }
      // A browser-style WebSocket cannot stop reading: past the console's budget its text is dropped.
      if (typeof message === "string" && message !== "") this.sink.output(message.endsWith("\n") ? message : `${message}\n`);
    });
    return {
      write: (line) => socket.send(JSON.stringify({ Identifier: this.nextId++, Message: line, Name: "WebRcon" })),
      close: () => socket.close(),
      closed,
    };
  }
}
