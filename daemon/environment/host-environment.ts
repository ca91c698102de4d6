// What the standard and tty environments share: one main host process and the step processes
// of the moment, signalled, killed (whole process trees) and measured the same way.
import type { ExitInfo, ProcessStats } from "./types";
import { TreeSampler, signalTree } from "./proc-tree";
import type { HostOptions } from "./host-process";

export abstract class HostEnvironment<P extends Bun.Subprocess<any, any, any>> {
  readonly rootDir: string;
  protected proc: P | null = null;
  private readonly steps = new Set<P>();
  private readonly sampler = new TreeSampler();

  constructor(protected readonly options: HostOptions) {
    this.rootDir = options.serverDir;
  }

  isRunning(): boolean {
    return this.proc !== null;
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
    // CPU percent needs two samples; a first request waits a moment for the second.
    if (!this.sampler.hasSample()) {
      this.sampler.sample(this.proc?.pid);
      await Bun.sleep(250);
    }
    return this.sampler.sample(this.proc?.pid);
  }

  async reattach(): Promise<boolean> {
    // A host process does not outlive the daemon's pipes; autostart brings it back instead.
    return false;
  }

  async destroy(): Promise<void> {
    await this.kill();
  }

  /** Runs a step process to its end, reachable by kill() meanwhile. */
  protected async track(proc: P, finished: () => Promise<ExitInfo>): Promise<ExitInfo> {
    this.steps.add(proc);
    try {
      return await finished();
    } finally {
      this.steps.delete(proc);
    }
  }
}
