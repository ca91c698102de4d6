// How often a server's users may ask for a backup: at most `count` started in any `windowMs`
// per server (Pterodactyl's default throttle, 2 in 10 minutes). One backup of a server runs at a
// time already (ErrServerBusy); without this a user with `backups` could run them back to back
// for good, each reading the whole folder and writing to the node's repository, and with the
// maximum a server keeps, each pushing an older backup out. Only backups a user asked for count
// (`by` "user:…", as the panel relays them): a task's runs are bounded by its schedule, and the
// backup a mods change makes first is part of that change. Past it, ErrTooManyRequests with
// when to try again; a refused or failed-to-start backup is not counted.
import { KilnError } from "../../core/errors";

export interface BackupRateLimit {
  count: number;
  windowMs: number;
}

export const DEFAULT_BACKUP_RATE: BackupRateLimit = { count: 2, windowMs: 10 * 60_000 };

export class BackupRate {
  private readonly started = new Map<string, number[]>();

  constructor(public limit: BackupRateLimit = { ...DEFAULT_BACKUP_RATE }) {}

  /** Counts a backup of `serverId` asked for by `by`, or refuses it; the call given back un-counts it (the backup did not start). */
  take(serverId: string, by: string, now = Date.now()): () => void {
    if (!by.startsWith("user:")) return () => undefined;
    const recent = (this.started.get(serverId) ?? []).filter((at) => now - at < this.limit.windowMs);
    if (recent.length >= this.limit.count) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + this.limit.windowMs - now) / 1000));
      throw new KilnError("ErrTooManyRequests", { retryAfter }, `at most ${this.limit.count} backups of a server in ${this.limit.windowMs / 60_000} minutes`);
    }
    recent.push(now);
    this.started.set(serverId, recent);
    return () => {
      const left = this.started.get(serverId) ?? [];
      const at = left.indexOf(now);
      if (at >= 0) left.splice(at, 1);
      if (left.length === 0) this.started.delete(serverId);
    };
  }
}
