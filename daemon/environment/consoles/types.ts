// A network console (PufferPanel v3's run.stdin types telnet, rcon and rconws): the server's
// commands go to a port its own process listens on, and the replies show on its console.
import type { DaemonMessage } from "../../../core/live/daemon-message";

export interface ConsoleTarget {
  /** A loopback address (checked by core/definition/console-address). */
  host: string;
  port: number;
  password: string;
  /** Where the console is as its template names it, when the node reaches it elsewhere (through the server's own network). */
  shownAs?: string;
}

export interface ConsoleSink {
  /**
   * Text the console's far end sent, shown as the server's output. A number is how many
   * milliseconds the console should read nothing more (its budget is spent: the far end then
   * waits on its writes, as a process does on a full pipe).
   */
  output(text: string): number | void;
  /** A line marked as the daemon's own (connected, refused, lost). */
  log(message: DaemonMessage): void;
}

export interface NetworkConsole {
  /** Connected (and logged in) right now. */
  readonly connected: boolean;
  /** Sends one command line; throws when the console is not connected within a few seconds. */
  send(line: string): Promise<void>;
  /** Stops reconnecting and closes the connection. */
  close(): void;
}
