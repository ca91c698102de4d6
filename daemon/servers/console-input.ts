// Where a running server's console lines and stop command go: its telnet or RCON console
// (run.stdin) when its definition names one, else the process's input. A network console that is
// not connected says so on the console rather than losing a line silently, and a stop command it
// cannot take is not waited on: the caller signals instead.
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import { openNetworkConsole, type NetworkConsole } from "../environment/consoles";
import type { ProcessEnvironment } from "../environment";
import { reasonMessage } from "../http/errors";
import type { ConsoleBuffer } from "./console-buffer";
import { ConsoleEcho } from "./console-echo";
import { NetworkConsoleBudget } from "./network-console-budget";

type ConsolePlan = Parameters<typeof openNetworkConsole>;

export class ConsoleInput {
  private network: NetworkConsole | null = null;
  /** Keeps one copy of the lines the network console mirrors from the process's output. */
  private echo: ConsoleEcho | null = null;
  private budget: NetworkConsoleBudget | null = null;

  constructor(
    private readonly console: ConsoleBuffer,
    private readonly env: () => ProcessEnvironment,
    private readonly log: (line: DaemonMessage) => void,
  ) {}

  /** The process started with a network console of `type` at `address`. */
  open(type: ConsolePlan[0], address: ConsolePlan[1]): void {
    const echo = (this.echo = new ConsoleEcho((line) => this.console.line(line)));
    // The game's console is the server's as much as its output: read within a budget of its own.
    const budget = (this.budget = new NetworkConsoleBudget(
      (text) => echo.consoleOutput(text),
      (bytes) => this.log(message("daemon.outputDropped", { count: bytes })),
    ));
    const output = (text: string) => budget.write(text);
    this.network = openNetworkConsole(type, address, { output, log: this.log });
  }

  /** The process's own output, for the echo to recognise what the network console mirrors. */
  processOutput(text: string): void {
    this.echo?.processOutput(text);
  }

  /** The process ended. */
  close(): void {
    this.network?.close();
    this.network = null;
    this.budget?.finish();
    this.budget = null;
    this.echo?.close();
    this.echo = null;
  }

  /** A line for the server's console (ending in a newline). */
  async send(line: string): Promise<void> {
    if (!this.network) return this.env().sendInput(line);
    await this.network.send(line.replace(/\r?\n$/, "")).catch((error: unknown) => this.console.daemon(message("daemon.commandNotSent", { reason: reasonMessage(error) })));
  }

  /** The stop command; false when it was not sent (the caller signals SIGTERM instead). */
  async sendStop(command: string): Promise<boolean> {
    const network = this.network;
    if (!network) {
      await this.env().sendInput(`${command}\n`);
      return true;
    }
    if (!network.connected) {
      this.console.daemon(message("daemon.stopConsoleNotConnected", { signal: "SIGTERM" }));
      return false;
    }
    try {
      await network.send(command);
      return true;
    } catch (error) {
      this.console.daemon(message("daemon.stopCommandNotSent", { reason: reasonMessage(error), signal: "SIGTERM" }));
      return false;
    }
  }
}
