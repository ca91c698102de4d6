// The disk space a server may take, as every write Kiln itself makes in the
// server's folder sees it: uploads, SFTP, extraction, archives, downloads and install steps each
// call chargeWrite with the bytes they are about to write, and are refused (ErrDiskQuotaExceeded)
// when those would take the folder past its limit. What the folder takes is the last measurement
// (daemon/servers/disk-usage.ts walks it) plus what Kiln wrote since; the server's own writes are
// caught by the next measurement instead. A whole-file write that failed gives its bytes back
// (refundWrite); others stay counted until the measurement that follows Kiln's writes shortly.
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";

const MIB = 1024 * 1024;

export class DiskQuota {
  /** Bytes the folder took at the last measurement; null before the first. */
  private measured: number | null = null;
  /** Bytes Kiln wrote since that measurement began. */
  private since = 0;

  constructor(
    /** The limit in bytes as the definition says now; null: none. */
    private readonly limit: () => number | null,
    /** Told after each write, so a measurement follows Kiln's own writes. */
    private readonly written: () => void = () => undefined,
  ) {}

  /** What the folder takes now as far as Kiln knows; null before the first measurement. */
  used(): number | null {
    return this.measured === null ? null : this.measured + this.since;
  }

  limitBytes(): number | null {
    return this.limit();
  }

  /** Bytes that may still be written; Infinity without a limit. */
  remaining(): number {
    const limit = this.limit();
    if (limit === null) return Infinity;
    return Math.max(0, limit - (this.measured ?? 0) - this.since);
  }

  isOver(): boolean {
    const limit = this.limit();
    const used = this.used();
    return limit !== null && used !== null && used > limit;
  }

  /** Counts `bytes` about to be written, or refuses them when they do not fit. */
  charge(bytes: number): void {
    if (bytes <= 0) return;
    if (bytes > this.remaining()) throw exceeded(this.limit() ?? 0);
    this.since += bytes;
    this.written();
  }

  /** Gives back what a write that failed and was removed had counted. */
  refund(bytes: number): void {
    this.since = Math.max(0, this.since - bytes);
  }

  /**
   * A measurement's result. `chargedBefore`: what `since` was when the walk began; bytes charged
   * while it ran may or may not be in `bytes`, so they stay counted (at worst twice, briefly).
   */
  record(bytes: number, chargedBefore: number): void {
    this.measured = bytes;
    this.since = Math.max(0, this.since - chargedBefore);
  }

  /** `since` now, for record(). */
  charged(): number {
    return this.since;
  }
}

/** The catalogue error, naming the limit in MiB as an administrator set it. */
export function exceeded(limitBytes: number): KilnError {
  const diskMiB = Math.round(limitBytes / MIB);
  return new KilnError("ErrDiskQuotaExceeded", { diskMiB }, `the server's folder would take more than its ${diskMiB} MiB of disk space`);
}

const quotas = new WeakMap<Jail, DiskQuota>();

/** Ties a server's quota to its jail: every write path already holds the jail. */
export function setQuota(jail: Jail, quota: DiskQuota): void {
  quotas.set(jail, quota);
}

/** The one check of every write Kiln makes: counts `bytes` for the jail's server, or throws ErrDiskQuotaExceeded. */
export function chargeWrite(jail: Jail, bytes: number): void {
  quotas.get(jail)?.charge(bytes);
}


/** A write that failed and was removed gives back the bytes it had counted. */
export function refundWrite(jail: Jail, bytes: number): void {
  quotas.get(jail)?.refund(bytes);
}

/** The server's disk space in bytes; null when it has none. */
export function diskLimit(jail: Jail): number | null {
  return quotas.get(jail)?.limitBytes() ?? null;
}

/** Refuses content of `bytes` that is to take the folder's place whole (a whole restore): more than the limit itself. */
export function assertFitsWhole(jail: Jail, bytes: number): void {
  const limit = diskLimit(jail);
  if (limit !== null && bytes > limit) throw exceeded(limit);
}

/** Refuses, before anything is written, a write of `bytes` that cannot fit (a copy knows its size up front). */
export function assertFits(jail: Jail, bytes: number): void {
  const quota = quotas.get(jail);
  if (quota && bytes > quota.remaining()) throw exceeded(quota.limitBytes() ?? 0);
}
