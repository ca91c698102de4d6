// A server's resource limits as plain values, free of zod so the stats island can read them
// without bundling the schemas (./limits holds the schema). 0 or absent means no limit.

export interface ResourceLimits {
  /** Memory of all the server's processes together, in MiB. */
  memoryMiB?: number;
  /** CPU time as a share of cores: 100 is one whole core, 250 two and a half. */
  cpuPercent?: number;
  /** Processes (and threads) the server may have at once. */
  processes?: number;
  /** Space its folder may take on the node's disk, in MiB. */
  diskMiB?: number;
}

export const LIMIT_FIELDS = ["memoryMiB", "cpuPercent", "processes", "diskMiB"] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

const MIB = 1024 * 1024;

/** A limit's value when it is one, else null (0 and absent mean none). */
export function limitOf(limits: ResourceLimits | undefined, field: LimitField): number | null {
  const value = limits?.[field];
  return typeof value === "number" && value > 0 ? value : null;
}

/** The limit in bytes for the two MiB fields, else null. */
export function limitBytes(limits: ResourceLimits | undefined, field: "memoryMiB" | "diskMiB"): number | null {
  const value = limitOf(limits, field);
  return value === null ? null : value * MIB;
}
