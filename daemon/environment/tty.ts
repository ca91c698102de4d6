// The tty environment: the server is a host process on a pseudo-terminal (Bun's `terminal`
// spawn option), for programs that only behave interactively on a terminal.
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, OutputSink } from "./types";
import { HostEnvironment } from "./host-environment";
import { hostSpawn, spawnUser, exitInfo, spawnError } from "./host-process";
import { signalTree } from "./proc-tree";

const COLUMNS = 120;
const ROWS = 40;

export class TtyEnvironment extends HostEnvironment<Bun.Subprocess> implements ProcessEnvironment {
  readonly type = "tty" as const;

  async start(spec: StartSpec): Promise<void> {
    const proc = this.spawn(spec, spec.output, await this.namespace());
    // After the spawn: it made the server's cgroup, whose count the exit compares with.
    this.noteStart();
    this.proc = proc;
    void proc.exited.then(() => {
      if (this.proc === proc) this.proc = null;
      proc.terminal?.close();
      spec.onExit(this.mainExit(exitInfo(proc.exitCode, proc.signalCode, this.wrappers)));
    });
  }

  async sendInput(text: string): Promise<void> {
    // A terminal ends a line with carriage return, as the Enter key does.
    this.proc?.terminal?.write(text.replace(/\n/g, "\r"));
  }

  async execute(spec: RunSpec): Promise<ExitInfo> {
    const proc = this.spawn(spec, spec.output, await this.namespace());
    return this.track(proc, async () => {
      await proc.exited;
      proc.terminal?.close();
      return exitInfo(proc.exitCode, proc.signalCode, this.wrappers);
    });
  }

  private spawn(spec: RunSpec, output: OutputSink, netns: string | undefined): Bun.Subprocess {
    let proc: Bun.Subprocess | undefined;
    const pausing = pauseWhileThrottled(output, () => proc);
    const target = this.prepare(hostSpawn(this.options, spec, true, netns));
    try {
      proc = Bun.spawn(target.argv, {
        cwd: target.cwd,
        env: target.env,
        ...spawnUser(target),
        terminal: { cols: COLUMNS, rows: ROWS, data: (_terminal, data) => pausing(data) },
      });
      return proc;
    } catch (error) {
      throw spawnError(spec.argv, error);
    }
  }
}

/**
 * A pty cannot be read more slowly the way a pipe can, and reading one flat out stalls the
 * daemon's event loop in the kernel (bench/daemon-console-throughput.ts). So when the console
 * asks to wait, the process tree is stopped (SIGSTOP) until it may write again (SIGCONT): the
 * same effect as a slow terminal. What still arrives meanwhile goes through the throttle,
 * which drops beyond its budget and says so.
 */
function pauseWhileThrottled(output: OutputSink, process: () => Bun.Subprocess | undefined): (data: Uint8Array) => void {
  let paused = false;
  return (data) => {
    const wait = output(data);
    const proc = process();
    if (!wait || paused || !proc) return;
    paused = true;
    signalTree(proc.pid, "SIGSTOP");
    void wait.then(() => {
      paused = false;
      if (proc.exitCode === null && proc.signalCode === null) signalTree(proc.pid, "SIGCONT");
    });
  };
}
