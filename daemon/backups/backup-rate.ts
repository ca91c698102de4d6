// How often backups of a server may be started by what its users do: at most `count` in any
// `windowMs` per server. One backup of a server runs at a time already (ErrServerBusy); without a
// bound a user could run them back to back for good, each reading the whole folder and writing to
// the node's repository, and with the maximum a server keeps, each pushing an older backup out.
// Two such bounds, each its own instance:
// - backups a user asked for (`by` "user:…", as the panel relays them): 2 in 10 minutes
//   (Pterodactyl's default throttle); a task's scheduled runs are bounded by their schedule, but
//   a task run by hand (run now) or by a trigger (a console line the server's players can make)
//   is asked for too, and counts here (`counted`): without it, run now in a loop made backups back
//   to back;
// - backups made first by an add-on change (mods, plugins, a modpack, a version switch), whoever
//   asked: each change makes one, so a user with the mods right alone made a backup per change,
//   filling a target without a maximum and pushing the server's other backups out of one with it.
// Past either, ErrTooManyRequests with when to try again; a refused or failed-to-start backup is
// not counted.
import { KilnError } from "../../core/errors";

export interface BackupRateLimit {
  count: number;
  windowMs: number;
}

export const DEFAULT_BACKUP_RATE: BackupRateLimit = { count: 2, windowMs: 10 * 60_000 };
/** Backups made before add-on changes: enough for a session of changes, not a backup per minute. */
export const DEFAULT_CHANGE_BACKUP_RATE: BackupRateLimit = { count: 6, windowMs: 60 * 60_000 };

/** Backups a server's users asked for count; a task's do not. */
const askedByUser = (by: string) => by.startsWith("user:");

export class BackupRate {
  private readonly started = new Map<string, number[]>();

  constructor(
    public limit: BackupRateLimit = { ...DEFAULT_BACKUP_RATE },
    /** Which backups count, by who made them. */
    private readonly counts: (by: string) => boolean = askedByUser,
    /** What the refusal says is bounded. */
    private readonly what = "backups of a server",
  ) {}

  /** Refuses (ErrTooManyRequests) when a backup of `serverId` by `by` would be past the bound; counts nothing. */
  check(serverId: string, by: string, now = Date.now(), counted = this.counts(by)): void {
    if (!counted) return;
    const recent = this.recent(serverId, now);
    if (recent.length < this.limit.count) return;
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + this.limit.windowMs - now) / 1000));
    throw new KilnError("ErrTooManyRequests", { retryAfter }, `at most ${this.limit.count} ${this.what} in ${this.limit.windowMs / 60_000} minutes`);
  }

  /** Counts a backup of `serverId` asked for by `by`, or refuses it; the call given back un-counts it (the backup did not start). */
  take(serverId: string, by: string, now = Date.now(), counted = this.counts(by)): () => void {
    this.check(serverId, by, now, counted);
    if (!counted) return () => undefined;
    const recent = this.recent(serverId, now);
    recent.push(now);
    this.started.set(serverId, recent);
    return () => {
      const left = this.started.get(serverId) ?? [];
      const at = left.indexOf(now);
      if (at >= 0) left.splice(at, 1);
      if (left.length === 0) this.started.delete(serverId);
    };
  }

  private recent(serverId: string, now: number): number[] {
    return (this.started.get(serverId) ?? []).filter((at) => now - at < this.limit.windowMs);
  }
}
