// The one interface every environment (standard, tty, docker) implements. A server owns one
// environment object; the environment owns at most one main process at a time.
import type { EnvironmentType } from "../../core/definition";

/**
 * Receives a process's output. Returning a promise asks the reader to wait before reading
 * more (backpressure); sources that cannot wait (a pty) drop instead and say so.
 */
export type OutputSink = (chunk: Uint8Array) => void | Promise<void>;

export interface ExitInfo {
  code: number | null;
  /** The signal that ended it, e.g. "SIGKILL"; null after a normal exit. */
  signal: string | null;
  /** Its memory limit ended it: the kernel's OOM killer acted in its cgroup (or the Engine says OOMKilled). */
  memoryLimit?: boolean;
}

export interface RunSpec {
  argv: string[];
  /** Relative to the server's folder; "" is the folder itself. */
  workingDirectory: string;
  env: Record<string, string>;
  output: OutputSink;
}

export interface StartSpec extends RunSpec {
  /** Called once when the main process has ended. */
  onExit(info: ExitInfo): void;
}

export interface ProcessStats {
  /** Percent of one core, two decimals. */
  cpu: number;
  /** Resident bytes of the whole process tree. */
  memory: number;
}

export interface ProcessEnvironment {
  readonly type: EnvironmentType;
  /** The server's folder as the process sees it (substituted as ${rootDir}). */
  readonly rootDir: string;
  /** Starts the main process; throws a KilnError (ErrDockerNotSupported…) when it cannot. */
  start(spec: StartSpec): Promise<void>;
  isRunning(): boolean;
  /** Writes to the main process's console (the caller adds the newline). */
  sendInput(text: string): Promise<void>;
  /** Sends a signal (a number or a name) to the main process. */
  signal(signal: number | NodeJS.Signals): Promise<void>;
  /** Ends the main process and everything it started, now. */
  kill(): Promise<void>;
  stats(): Promise<ProcessStats>;
  /** Runs a one-off command (an install or task step) to its end, its output on the console. */
  execute(spec: RunSpec): Promise<ExitInfo>;
  /**
   * After a daemon restart: picks a main process that is still running back up (docker
   * containers outlive the daemon). Resolves false when there is none.
   */
  reattach(spec: Omit<StartSpec, "argv" | "workingDirectory" | "env">): Promise<boolean>;
  /** Removes what the environment keeps outside the server's folder (a container). */
  destroy(): Promise<void>;
}
