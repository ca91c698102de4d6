// How a node holds the processes of a server on the node itself (standard and tty environments)
// to its limits, decided once when the node starts:
// - "cgroup2": one folder per server under /sys/fs/cgroup/kiln/ with memory.max, pids.max, cpu.max;
// - "cgroup1": the same in each v1 controller's tree (memory, pids, cpu: kiln/<id>/);
// - "prlimit": no cgroup the node may write; memory as the address space (RLIMIT_AS) and
//   processes as RLIMIT_NPROC, which counts per uid and so only holds when each server has its
//   own uid (the node runs as root); no CPU limit;
// - "none": not even prlimit is there; limits are not enforced (the node's page says so).
// Every process Kiln starts for a server goes through one argv prefix made here, so it is in its
// server's cgroup (or under its rlimits) before it runs a single instruction of the server's.
import { accessSync, constants, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { limitBytes, limitOf, type ResourceLimits } from "../../core/definition";
import { behindRootStages, systemProgram, type SpawnTarget } from "./sandbox";

export type LimitMechanism = "cgroup2" | "cgroup1" | "prlimit" | "none";

const CGROUP_ROOT = "/sys/fs/cgroup";
const V1_CONTROLLERS = ["memory", "pids", "cpu"] as const;
/** The CFS period: a quota of cpuPercent × 1000 µs per 100 ms is cpuPercent % of one core. */
const CPU_PERIOD_US = 100_000;
/**
 * Run as the spawned process itself: writes its own pid into each cgroup.procs named before "--",
 * then becomes the real command. No process of the server's ever runs outside its cgroup, which a
 * move from the daemon after the spawn could not promise (the command might fork first).
 */
const JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

/** One server's side of it: the node's limiter, the server's id, and its limits as its definition says now. */
export interface ServerLimits {
  limiter: HostLimiter;
  serverId: string;
  current(): ResourceLimits | undefined;
}

/**
 * The spawn with the limits' prefix in front. The prefix must run as root to join the cgroup, so a
 * user the spawn would have switched to (no sandbox to do it) is switched to by setpriv after it.
 * Every part of the prefix ends in exec: no process stands between, so signals still find the command.
 */
export function limited(target: SpawnTarget, server: ServerLimits, ownUid: boolean): SpawnTarget {
  return behindRootStages(target, server.limiter.prefix(server.serverId, server.current(), ownUid));
}

export class HostLimiter {
  constructor(
    readonly mechanism: LimitMechanism,
    private readonly root = CGROUP_ROOT,
  ) {}

  /**
   * The argv to put before a server's command so `limits` hold for it; [] when it has none (or the
   * node cannot enforce any). `ownUid`: the server has a uid of its own (RLIMIT_NPROC counts per uid).
   */
  prefix(serverId: string, limits: ResourceLimits | undefined, ownUid: boolean): string[] {
    const memory = limitBytes(limits, "memoryMiB");
    const cpu = limitOf(limits, "cpuPercent");
    const processes = limitOf(limits, "processes");
    if (memory === null && cpu === null && processes === null) return [];
    switch (this.mechanism) {
      case "cgroup2":
      case "cgroup1":
        return [systemProgram("sh"), "-c", JOIN_SCRIPT, "kiln-limits", ...this.prepare(serverId, memory, cpu, processes), "--"];
      case "prlimit": {
        const args = memory === null ? [] : [`--as=${memory}`];
        if (processes !== null && ownUid) args.push(`--nproc=${processes}`);
        return args.length === 0 ? [] : [systemProgram("prlimit"), ...args, "--"];
      }
      case "none":
        return [];
    }
  }

  /** Removes the server's cgroups once nothing of it runs (a cgroup with processes stays). */
  release(serverId: string): void {
    for (const folder of this.folders(serverId)) {
      try {
        rmdirSync(folder);
      } catch {
        // still in use, or never made
      }
    }
  }

  /**
   * How many processes the kernel's OOM killer has ended in the server's memory cgroup so far
   * (memory.events on v2, memory.oom_control on v1; a count kept since the cgroup was made), or
   * null where there is no such cgroup.
   */
  oomKills(serverId: string): number | null {
    const [memory] = this.folders(serverId);
    if (!memory) return null;
    try {
      const text = readFileSync(join(memory, this.mechanism === "cgroup2" ? "memory.events" : "memory.oom_control"), "utf8");
      const count = /^oom_kill (\d+)$/m.exec(text);
      return count ? Number(count[1]) : null;
    } catch {
      return null;
    }
  }

  /** Where the server's cgroup files are: one folder (v2) or one per controller (v1). */
  folders(serverId: string): string[] {
    if (this.mechanism === "cgroup2") return [join(this.root, "kiln", serverId)];
    if (this.mechanism === "cgroup1") return V1_CONTROLLERS.map((controller) => join(this.root, controller, "kiln", serverId));
    return [];
  }

  /** Makes the server's cgroups with today's limits (they may have changed since the last start); their cgroup.procs files. */
  private prepare(serverId: string, memory: number | null, cpu: number | null, processes: number | null): string[] {
    const quota = cpu === null ? null : Math.round((cpu / 100) * CPU_PERIOD_US);
    if (this.mechanism === "cgroup2") {
      const folder = join(this.root, "kiln", serverId);
      mkdirSync(folder, { recursive: true });
      write(folder, "memory.max", memory ?? "max");
      // Without swap the limit is the limit: a server over it is ended, not paged out.
      write(folder, "memory.swap.max", memory === null ? "max" : 0, true);
      write(folder, "pids.max", processes ?? "max");
      write(folder, "cpu.max", `${quota ?? "max"} ${CPU_PERIOD_US}`);
      return [join(folder, "cgroup.procs")];
    }
    const [memoryDir, pidsDir, cpuDir] = this.folders(serverId) as [string, string, string];
    for (const folder of [memoryDir, pidsDir, cpuDir]) mkdirSync(folder, { recursive: true });
    // memsw (memory + swap) must never be below the memory limit: lifted first, set after.
    write(memoryDir, "memory.memsw.limit_in_bytes", -1, true);
    write(memoryDir, "memory.limit_in_bytes", memory ?? -1);
    if (memory !== null) write(memoryDir, "memory.memsw.limit_in_bytes", memory, true);
    write(pidsDir, "pids.max", processes ?? "max");
    write(cpuDir, "cpu.cfs_period_us", CPU_PERIOD_US);
    write(cpuDir, "cpu.cfs_quota_us", quota ?? -1);
    return [memoryDir, pidsDir, cpuDir].map((folder) => join(folder, "cgroup.procs"));
  }
}

/** `optional`: a file only some kernels have (swap accounting); its absence is no error. */
function write(folder: string, file: string, value: string | number, optional = false): void {
  try {
    writeFileSync(join(folder, file), String(value));
  } catch (error) {
    if (!optional) throw error;
  }
}

/**
 * What this node can use: cgroup v2 when /sys/fs/cgroup is the unified tree with the memory,
 * pids and cpu controllers and the node may make kiln/ there; else cgroup v1 when it may make
 * kiln/ in each of those controllers' trees (this is what a hybrid system like Docker's default
 * hosts offers); else prlimit when the program is there; else none.
 */
export function probeLimits(root = CGROUP_ROOT): LimitMechanism {
  if (cgroup2Usable(root)) return "cgroup2";
  if (V1_CONTROLLERS.every((controller) => makeable(join(root, controller, "kiln")))) return "cgroup1";
  return Bun.which("prlimit") ? "prlimit" : "none";
}

function cgroup2Usable(root: string): boolean {
  try {
    const controllers = readFileSync(join(root, "cgroup.controllers"), "utf8").split(/\s+/);
    if (!["memory", "pids", "cpu"].every((name) => controllers.includes(name))) return false;
    // The controllers must be handed down to kiln/ and from it to each server's folder.
    writeFileSync(join(root, "cgroup.subtree_control"), "+memory +pids +cpu");
    if (!makeable(join(root, "kiln"))) return false;
    writeFileSync(join(root, "kiln", "cgroup.subtree_control"), "+memory +pids +cpu");
    return true;
  } catch {
    return false;
  }
}

/** Makes `folder` (or finds it) and may write in it. */
function makeable(folder: string): boolean {
  try {
    mkdirSync(folder);
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") return false;
  }
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
