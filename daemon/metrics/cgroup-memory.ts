// The memory a node may really use when it runs inside a memory-limited cgroup (a container, an
// LXC guest, a systemd slice with MemoryMax): /proc/meminfo tells the whole machine, so a node
// limited to 2 GB on a 64 GB host would look like it had 60 GB free and placement would pile
// servers onto it. The tightest limit on the node's own cgroup and its ancestors wins; what is used
// is the cgroup's charge less its inactive file cache (the kernel reclaims that first, as
// MemAvailable counts it free). Linux cgroup v1 (memory controller) and v2; null when no limit
// applies or nothing can be read.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = "/sys/fs/cgroup";
/** v1 writes "no limit" as a page-rounded 2^63 − 1; anything at or above this is none. */
const NO_LIMIT = 2 ** 60;

export interface CgroupMemory {
  limitBytes: number;
  usedBytes: number;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
};

/** The node's own cgroup for memory: v1's memory controller line, else v2's unified one. */
function ownCgroup(selfCgroup: string): { version: 1 | 2; path: string } | null {
  const lines = selfCgroup.split("\n");
  const v1 = lines.map((line) => line.split(":")).find((parts) => parts[1]?.split(",").includes("memory"));
  if (v1) return { version: 1, path: v1.slice(2).join(":") };
  const v2 = lines.map((line) => line.split(":")).find((parts) => parts[0] === "0" && parts[1] === "");
  return v2 ? { version: 2, path: v2.slice(2).join(":") } : null;
}

export function cgroupMemory(root = ROOT, selfCgroup = read("/proc/self/cgroup") ?? ""): CgroupMemory | null {
  const own = ownCgroup(selfCgroup);
  if (!own) return null;
  const base = own.version === 1 ? join(root, "memory") : root;
  const [limitFile, usageFile, inactiveKey] = own.version === 1 ? ["memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"] : ["memory.max", "memory.current", "inactive_file"];
  // The tightest limit from the node's cgroup up to the root; its usage is read where it is set.
  let tightest: { limit: number; dir: string } | null = null;
  const parts = own.path.split("/").filter(Boolean);
  for (let depth = parts.length; depth >= 0; depth--) {
    const dir = join(base, ...parts.slice(0, depth));
    const text = read(join(dir, limitFile));
    const limit = text === null || text === "max" ? NaN : Number(text);
    if (Number.isFinite(limit) && limit < NO_LIMIT && (!tightest || limit < tightest.limit)) tightest = { limit, dir };
  }
  if (!tightest) return null;
  const usage = Number(read(join(tightest.dir, usageFile)));
  if (!Number.isFinite(usage)) return null;
  const stat = read(join(tightest.dir, "memory.stat")) ?? "";
  const inactive = Number(new RegExp(`^${inactiveKey} (\\d+)$`, "m").exec(stat)?.[1] ?? 0);
  return { limitBytes: tightest.limit, usedBytes: Math.max(0, usage - inactive) };
}
