// The tty environment: the server is a host process on a pseudo-terminal (Bun's `terminal`
// spawn option), for programs that only behave interactively on a terminal.
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, ProcessStats, OutputSink } from "./types";
import { TreeSampler, signalTree } from "./proc-tree";
import { hostEnv, workingDir, exitInfo, spawnError, type HostOptions } from "./host-process";
import { sampleTwiceFirst } from "./standard";

const COLUMNS = 120;
const ROWS = 40;

export class TtyEnvironment implements ProcessEnvironment {
  readonly type = "tty" as const;
  readonly rootDir: string;
  private proc: Bun.Subprocess | null = null;
  private readonly steps = new Set<Bun.Subprocess>();
  private readonly sampler = new TreeSampler();

  constructor(private readonly options: HostOptions) {
    this.rootDir = options.serverDir;
  }

  async start(spec: StartSpec): Promise<void> {
    const proc = this.spawn(spec, spec.output);
    this.proc = proc;
    void proc.exited.then(() => {
      if (this.proc === proc) this.proc = null;
      proc.terminal?.close();
      spec.onExit(exitInfo(proc.exitCode, proc.signalCode));
    });
  }

  isRunning(): boolean {
    return this.proc !== null;
  }

  async sendInput(text: string): Promise<void> {
    // A terminal ends a line with carriage return, as the Enter key does.
    this.proc?.terminal?.write(text.replace(/\n/g, "\r"));
  }

  async signal(signal: number | NodeJS.Signals): Promise<void> {
    this.proc?.kill(signal);
  }

  async kill(): Promise<void> {
    for (const proc of [this.proc, ...this.steps]) {
      if (!proc) continue;
      signalTree(proc.pid, "SIGKILL");
      await proc.exited;
    }
  }

  async stats(): Promise<ProcessStats> {
    return sampleTwiceFirst(this.sampler, () => this.proc?.pid);
  }

  async execute(spec: RunSpec): Promise<ExitInfo> {
    const proc = this.spawn(spec, spec.output);
    this.steps.add(proc);
    try {
      await proc.exited;
      proc.terminal?.close();
      return exitInfo(proc.exitCode, proc.signalCode);
    } finally {
      this.steps.delete(proc);
    }
  }

  async reattach(): Promise<boolean> {
    return false;
  }

  async destroy(): Promise<void> {
    await this.kill();
  }

  private spawn(spec: RunSpec, output: OutputSink): Bun.Subprocess {
    try {
      return Bun.spawn(spec.argv, {
        cwd: workingDir(this.options.serverDir, spec.workingDirectory),
        env: { TERM: "xterm-256color", ...hostEnv(this.options, spec.env) },
        // A pty cannot be paused; the console's throttle drops what arrives too fast and says so.
        terminal: { cols: COLUMNS, rows: ROWS, data: (_terminal, data) => void output(data) },
      });
    } catch (error) {
      throw spawnError(spec.argv, error);
    }
  }
}
