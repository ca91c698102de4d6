// The standard environment: the server is a host process with piped stdin, stdout and stderr,
// in its own process group so kill reaches everything it started.
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, ProcessStats } from "./types";
import { TreeSampler, signalTree } from "./proc-tree";
import { hostEnv, workingDir, pump, exitInfo, spawnError, type HostOptions } from "./host-process";

type PipedProcess = Bun.Subprocess<"pipe", "pipe", "pipe">;

/** How long output may keep arriving after the main process has ended. */
const EXIT_DRAIN_MS = 1000;

/** The process was started in its own group (detached), so the group's id is its pid. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // nothing left in the group
  }
}

export class StandardEnvironment implements ProcessEnvironment {
  readonly type = "standard" as const;
  readonly rootDir: string;
  private proc: PipedProcess | null = null;
  private readonly steps = new Set<PipedProcess>();
  private readonly sampler = new TreeSampler();

  constructor(private readonly options: HostOptions) {
    this.rootDir = options.serverDir;
  }

  async start(spec: StartSpec): Promise<void> {
    const proc = this.spawn(spec);
    this.proc = proc;
    const drained = Promise.all([pump(proc.stdout, spec.output), pump(proc.stderr, spec.output)]);
    void proc.exited.then(async () => {
      // A child the process left behind may hold the pipes open; it does not get to keep the
      // server "running": its output gets a moment to drain, then the group is ended.
      await Promise.race([drained, Bun.sleep(EXIT_DRAIN_MS)]);
      killGroup(proc.pid);
      if (this.proc === proc) this.proc = null;
      spec.onExit(exitInfo(proc.exitCode, proc.signalCode));
    });
  }

  isRunning(): boolean {
    return this.proc !== null;
  }

  async sendInput(text: string): Promise<void> {
    if (!this.proc) return;
    this.proc.stdin.write(text);
    await this.proc.stdin.flush();
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
    const proc = this.spawn(spec);
    this.steps.add(proc);
    try {
      proc.stdin.end();
      await Promise.all([pump(proc.stdout, spec.output), pump(proc.stderr, spec.output), proc.exited]);
      return exitInfo(proc.exitCode, proc.signalCode);
    } finally {
      this.steps.delete(proc);
    }
  }

  async reattach(): Promise<boolean> {
    // A host process does not outlive the daemon's pipes; autostart brings it back instead.
    return false;
  }

  async destroy(): Promise<void> {
    await this.kill();
  }

  private spawn(spec: RunSpec): PipedProcess {
    try {
      return Bun.spawn(spec.argv, {
        cwd: workingDir(this.options.serverDir, spec.workingDirectory),
        env: hostEnv(this.options, spec.env),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      throw spawnError(spec.argv, error);
    }
  }
}

/** CPU percent needs two samples; a first request waits a moment for the second. */
export async function sampleTwiceFirst(sampler: TreeSampler, pid: () => number | undefined): Promise<ProcessStats> {
  if (!sampler.hasSample()) {
    sampler.sample(pid());
    await Bun.sleep(250);
  }
  return sampler.sample(pid());
}
