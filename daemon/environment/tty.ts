// The tty environment: the server is a host process on a pseudo-terminal (Bun's `terminal`
// spawn option), for programs that only behave interactively on a terminal.
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, OutputSink } from "./types";
import { HostEnvironment } from "./host-environment";
import { hostEnv, workingDir, exitInfo, spawnError } from "./host-process";

const COLUMNS = 120;
const ROWS = 40;

export class TtyEnvironment extends HostEnvironment<Bun.Subprocess> implements ProcessEnvironment {
  readonly type = "tty" as const;

  async start(spec: StartSpec): Promise<void> {
    const proc = this.spawn(spec, spec.output);
    this.proc = proc;
    void proc.exited.then(() => {
      if (this.proc === proc) this.proc = null;
      proc.terminal?.close();
      spec.onExit(exitInfo(proc.exitCode, proc.signalCode));
    });
  }

  async sendInput(text: string): Promise<void> {
    // A terminal ends a line with carriage return, as the Enter key does.
    this.proc?.terminal?.write(text.replace(/\n/g, "\r"));
  }

  execute(spec: RunSpec): Promise<ExitInfo> {
    const proc = this.spawn(spec, spec.output);
    return this.track(proc, async () => {
      await proc.exited;
      proc.terminal?.close();
      return exitInfo(proc.exitCode, proc.signalCode);
    });
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
