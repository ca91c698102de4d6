// What the three network consoles share: the server's process opens its console port some time
// after it starts (a game loads first), so the node connects, and reconnects after a loss, every
// second while the server runs, as PufferPanel's daemon does every few seconds. A command waits
// a little for the connection rather than failing at once during start-up.
import type { ConsoleSink, ConsoleTarget, NetworkConsole } from "./types";
import { message } from "../../../core/live/daemon-message";
import { SaidError } from "../../said-error";

/** How long a command waits for the console to be connected. */
export const SEND_WAIT_MS = 5000;
const RETRY_MS = 1000;

export interface Link {
  write(line: string): void | Promise<void>;
  close(): void;
  /** Settles when the connection is lost or closed. */
  closed: Promise<void>;
}

/** Reads nothing from `socket` for `ms` (the console's budget is spent), when it says to wait. */
export function holdReading(socket: { pause(): unknown; resume(): unknown }, ms: number | void): void {
  if (!ms) return;
  socket.pause();
  setTimeout(() => socket.resume(), ms);
}

export abstract class ReconnectingConsole implements NetworkConsole {
  private link: Link | null = null;
  private open = true;
  private waiters: Array<() => void> = [];
  private announced = false;

  constructor(
    protected readonly target: ConsoleTarget,
    protected readonly sink: ConsoleSink,
    private readonly label: string,
  ) {
    void this.loop();
  }

  /** The console's address as the server's template names it. */
  protected get address(): string {
    return this.target.shownAs ?? `${this.target.host}:${this.target.port}`;
  }

  get connected(): boolean {
    return this.link !== null;
  }

  /** Opens one connection (authenticated where the protocol needs it); throws when it cannot. */
  protected abstract connect(): Promise<Link>;

  async send(line: string): Promise<void> {
    if (!this.link) await this.waitForLink();
    if (!this.link) throw new Error(`the ${this.label} console at ${this.address} is not connected`);
    await this.link.write(line);
  }

  close(): void {
    this.open = false;
    this.link?.close();
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async loop(): Promise<void> {
    while (this.open) {
      try {
        const link = await this.connect();
        if (!this.open) {
          link.close();
          break;
        }
        this.link = link;
        if (!this.announced) this.sink.log(message("daemon.consoleConnected", { label: this.label, address: this.address }));
        this.announced = true;
        for (const wake of this.waiters.splice(0)) wake();
        await link.closed;
        this.link = null;
      } catch (error) {
        if (error instanceof RefusedError && this.open) this.sink.log(error.said);
      }
      if (this.open) await Bun.sleep(RETRY_MS);
    }
  }

  private waitForLink(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, SEND_WAIT_MS);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The far end answered but refused us (a wrong RCON password): said on the console, then retried. */
export class RefusedError extends SaidError {}
