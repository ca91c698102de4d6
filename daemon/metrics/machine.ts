// The node's own machine for the panel's metrics: load averages, memory (its cgroup's limit when
// it runs in a memory-limited one: ./cgroup-memory), and the file system its
// data folder (the servers' folders) lives on. Read when the panel asks, at most every collector
// interval: nothing is kept or watched in between.
import { readFile, statfs } from "node:fs/promises";
import { availableParallelism, freemem, loadavg, totalmem } from "node:os";
import type { MachineFigures } from "../../core/metrics";
import { cgroupMemory } from "./cgroup-memory";

/** MemTotal and MemAvailable (what can be had without swapping) from Linux's /proc/meminfo; null elsewhere. */
async function meminfo(): Promise<{ total: number; available: number } | null> {
  const text = await readFile("/proc/meminfo", "utf8").catch(() => null);
  if (text === null) return null;
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(text)?.[1] ?? NaN) * 1024;
  const total = kib("MemTotal");
  const available = kib("MemAvailable");
  return Number.isFinite(total) && Number.isFinite(available) ? { total, available } : null;
}

export async function machineFigures(dataDir: string): Promise<MachineFigures> {
  const [load1, load5, load15] = loadavg();
  const machine = (await meminfo()) ?? { total: totalmem(), available: freemem() };
  // Inside a memory-limited cgroup (a container) the limit is the node's memory, not the host's.
  const fenced = cgroupMemory();
  const memory = fenced && fenced.limitBytes < machine.total ? { total: fenced.limitBytes, available: Math.min(machine.available, Math.max(0, fenced.limitBytes - fenced.usedBytes)) } : machine;
  // bavail, not bfree: the blocks kept for root are not there for the servers' own users.
  const disk = await statfs(dataDir).catch(() => null);
  return {
    load: [load1 ?? 0, load5 ?? 0, load15 ?? 0],
    memoryTotalBytes: memory.total,
    memoryAvailableBytes: memory.available,
    diskTotalBytes: disk ? disk.blocks * disk.bsize : null,
    diskFreeBytes: disk ? disk.bavail * disk.bsize : null,
    cpus: availableParallelism(),
  };
}
