// How often backups of a server may be started by what its users do.
// - Backups a user asked for (`by` "user:…", as the panel relays them): at most `count` in any
//   `windowMs` per server, 2 in 10 minutes (Pterodactyl's default throttle). One backup of a
//   server runs at a time already (ErrServerBusy); without a bound a user could run them back to
//   back for good, each reading the whole folder and writing to the node's repository, and with
//   the maximum a server keeps, each pushing an older backup out. A task's scheduled runs are
//   bounded by their schedule, but a task run by hand (run now) or by a trigger (a console line
//   the server's players can make) is asked for too, and counts here (`counted`): without it, run
//   now in a loop made backups back to back. Past it, ErrTooManyRequests with when to try again; a
//   refused or failed-to-start backup is not counted.
// - Backups made first by an add-on change (mods, plugins, a modpack, a version switch) are never
//   refused for how many there were: an owner installing mods one by one makes one per install.
//   They are kept among themselves (the newest few, BackupService), so they push nothing out and
//   fill no target; what is left is the work each one costs, and against a machine's loop of
//   changes only a pace: one every CHANGE_BACKUP_GAP_MS per server, the next one waiting
//   (BackupPace), never refused.
// - Locking and unlocking a backup (restic tag: a snapshot rewritten in the target's queue, for an
//   off-node target about half a second and 60 MiB of key derivation each) are not backups, but a
//   user with the backups right looping them kept the node's CPU and memory busy and held up every
//   other server's change of that target. A few at once, then one every TAG_RATE.everyMs per
//   server (TagRate); past it ErrTooManyRequests and the backup stays as it was.
import { KilnError } from "../../core/errors";
import { TokenBucket } from "../../core/live/token-bucket";

export interface BackupRateLimit {
  count: number;
  windowMs: number;
}

export const DEFAULT_BACKUP_RATE: BackupRateLimit = { count: 2, windowMs: 10 * 60_000 };
/**
 * Between two backups before add-on changes of a server: a machine's loop is held to one backup's
 * work every two seconds, while a person switching one mod off and removing another right after
 * waits no more than that (10 s made such a pair wait 10 s).
 */
export const CHANGE_BACKUP_GAP_MS = 2_000;

/** Backups a server's users asked for count; a task's do not. */
const askedByUser = (by: string) => by.startsWith("user:");

export class BackupRate {
  private readonly started = new Map<string, number[]>();

  constructor(public limit: BackupRateLimit = { ...DEFAULT_BACKUP_RATE }) {}

  /** Refuses (ErrTooManyRequests) when a backup of `serverId` by `by` would be past the bound; counts nothing. */
  check(serverId: string, by: string, now = Date.now(), counted = askedByUser(by)): void {
    if (!counted) return;
    const recent = this.recent(serverId, now);
    if (recent.length < this.limit.count) return;
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + this.limit.windowMs - now) / 1000));
    throw new KilnError("ErrTooManyRequests", { retryAfter }, `at most ${this.limit.count} backups of a server in ${this.limit.windowMs / 60_000} minutes`);
  }

  /** Counts a backup of `serverId` asked for by `by`, or refuses it; the call given back un-counts it (the backup did not start). */
  take(serverId: string, by: string, now = Date.now(), counted = askedByUser(by)): () => void {
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

/** One backup per server every `gapMs`: the next waits its turn (turns are handed out as asked, so waits queue up). */
export class BackupPace {
  private readonly next = new Map<string, number>();

  constructor(public gapMs = CHANGE_BACKUP_GAP_MS) {}

  /** Resolves when a backup of `serverId` may start: at once, or `gapMs` after the one before. */
  async wait(serverId: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(serverId) ?? now);
    this.next.set(serverId, at + this.gapMs);
    if (at > now) await Bun.sleep(at - now);
  }
}

/** Lock and unlock of a server's backups: `burst` at once (a person locking a few), then one every `everyMs`. */
export const TAG_RATE = { burst: 6, everyMs: 10_000 };

/** Per server, how often its backups' tags may change (a token bucket each). */
export class TagRate {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(public budget = { ...TAG_RATE }) {}

  /** Takes one change of `serverId`'s tags, or refuses it (ErrTooManyRequests) with nothing taken. */
  take(serverId: string): void {
    let bucket = this.buckets.get(serverId);
    if (!bucket) this.buckets.set(serverId, (bucket = new TokenBucket(1000 / this.budget.everyMs, this.budget.burst)));
    if (bucket.take()) return;
    throw new KilnError("ErrTooManyRequests", { retryAfter: Math.max(1, Math.ceil(this.budget.everyMs / 1000)) }, `at most one lock or unlock of a server's backups every ${this.budget.everyMs / 1000} s`);
  }
}
