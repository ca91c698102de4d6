// The node's own machine for the panel's metrics: load averages, memory, and the file system its
// data folder (the servers' folders) lives on. Read when the panel asks, at most every collector
// interval: nothing is kept or watched in between.
import { readFile, statfs } from "node:fs/promises";
import { availableParallelism, freemem, loadavg, totalmem } from "node:os";
import type { MachineFigures } from "../../core/metrics";

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
  const memory = (await meminfo()) ?? { total: totalmem(), available: freemem() };
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
