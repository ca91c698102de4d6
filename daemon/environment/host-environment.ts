// What the standard and tty environments share: one main host process and the step processes
// of the moment, signalled, killed (whole process trees) and measured the same way.
import type { ExitInfo, ProcessStats } from "./types";
import { TreeSampler, signalTree, awaitDescendant } from "./proc-tree";
import type { HostOptions } from "./host-process";
import type { SpawnTarget } from "./sandbox";

export abstract class HostEnvironment<P extends Bun.Subprocess<any, any, any>> {
  readonly rootDir: string;
  protected proc: P | null = null;
  private readonly steps = new Set<P>();
  private readonly sampler = new TreeSampler();
  /** Sandbox processes between a spawned process and the server's command (the same for every spawn). */
  protected wrappers = 0;
  /** The memory cgroup's OOM kill count when the main process started. */
  private oomKillsAtStart: number | null = null;

  constructor(protected readonly options: HostOptions) {
    this.rootDir = options.serverDir;
  }

  isRunning(): boolean {
    return this.proc !== null;
  }

  async signal(signal: number | NodeJS.Signals): Promise<void> {
    if (!this.proc) return;
    // The command itself, not the sandbox around it: bubblewrap does not pass signals on, and a
    // game that saves on SIGTERM must get it (waited for when the sandbox is still starting it).
    const target = await awaitDescendant(this.proc.pid, this.wrappers);
    try {
      process.kill(target, signal);
    } catch {
      // it ended meanwhile; the exit is reported through onExit
    }
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

  /** Notes the OOM kill count before the main process starts, so its exit can say whether the limit ended it. */
  protected noteStart(): void {
    const limits = this.options.limits;
    this.oomKillsAtStart = limits ? limits.limiter.oomKills(limits.serverId) : null;
  }

  /** The main process's exit, with whether its memory limit ended it (a SIGKILL the OOM killer counted). */
  protected mainExit(info: ExitInfo): ExitInfo {
    const limits = this.options.limits;
    if (!limits || this.oomKillsAtStart === null || info.signal !== "SIGKILL") return info;
    const now = limits.limiter.oomKills(limits.serverId);
    return now !== null && now > this.oomKillsAtStart ? { ...info, memoryLimit: true } : info;
  }

  /** The server's network namespace, made first if need be; undefined when it shares the node's network. */
  protected namespace(): Promise<string | undefined> {
    return this.options.network ? this.options.network.ensure() : Promise.resolve(undefined);
  }

  protected prepare(target: SpawnTarget): SpawnTarget {
    this.wrappers = target.wrappers;
    return target;
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
