// Reads made on most requests (the settings, the login page's SSO providers, a session, a page of
// the server list), kept in memory and made again only when the database may have changed. On
// SQLite that is its driver's generation (any write through this process at once; another
// connection's commit, a `kiln` command, within OTHER_WRITERS_MS). On PostgreSQL other panels
// write too, and their writes reach this one only as announcements (NOTIFY, a moment after their
// commit): a kept read names the topic they announce its changes under, or is kept only if a
// moment's staleness is harmless (a list, never a right), or is not kept at all.
import type { Db } from "./client";
import type { Driver } from "./drivers/driver";
import { currentTransaction } from "./drivers/transactions";

export { OTHER_WRITERS_MS } from "./drivers/sqlite";

interface Kept<T> {
  stamp: number | string;
  value: T;
}

/**
 * Where the driver has no generation: what moves when this process writes, or another panel
 * announces the topic. NaN while the feed is cut (its mark is NaN): no stamp equals NaN, so
 * nothing is kept while another panel's write could not be heard (a token rotated meanwhile).
 */
function stampOf(driver: Driver, writes: number, topic: string): number | string {
  if (driver.generation) return driver.generation();
  const mark = driver.changes.mark(topic);
  return Number.isNaN(mark) ? NaN : `${writes}:${mark}`;
}

/** One whole read (a small table), kept per database. */
export class KeptRead<T> {
  /** Writes of this topic through this process (what `written` was told). */
  private writes = 0;
  private readonly kept = new WeakMap<Driver, Kept<T>>();

  /** `topic` names the changes other panel processes announce; `read` reads the whole value. */
  constructor(
    private readonly topic: string,
    private readonly read: (db: Db) => Promise<T>,
  ) {}

  /**
   * After a write (committed or rolled back: call it once the transaction has ended): this
   * process reads again at once, every other panel process when told.
   */
  async written(db: Db): Promise<void> {
    this.writes++;
    await db.$kiln.announce(this.topic);
  }

  async get(db: Db): Promise<T> {
    // Inside a transaction, read what it sees.
    if (currentTransaction()) return await this.read(db);
    const driver = db.$kiln;
    // Taken before the read: a write landing during it makes the next call read again.
    const stamp = stampOf(driver, this.writes, this.topic);
    const last = this.kept.get(driver);
    if (last?.stamp === stamp) return last.value;
    const value = await this.read(db);
    this.kept.set(driver, { stamp, value });
    return value;
  }
}

/**
 * Reads by key (a session by its token's hash), kept per database while its generation stands.
 * By default SQLite only, since a PostgreSQL panel sees another panel's write only a moment after
 * it lands; `announced` keeps them on PostgreSQL too, until the database announces a write
 * (announcedGeneration), for reads a moment's staleness cannot harm (what a list shows: every
 * right is checked again by what acts on it). At most `max` kept; past that, all are dropped.
 */
export class KeptLookups<K, V> {
  private readonly kept = new WeakMap<Driver, { generation: number; values: Map<K, V> }>();

  constructor(
    private readonly max: number,
    private readonly options: { announced?: true } = {},
  ) {}

  private generationOf(driver: Driver): (() => number) | undefined {
    return this.options.announced ? driver.announcedGeneration : driver.generation;
  }

  /** `fresh` may judge a kept value out of date for reasons of its own (its age): it is read again then. */
  async get(db: Db, key: K, read: () => Promise<V>, fresh?: (value: V) => boolean): Promise<V> {
    const driver = db.$kiln;
    const current = this.generationOf(driver);
    if (!current || currentTransaction()) return await read();
    const generation = current();
    let kept = this.kept.get(driver);
    if (kept?.generation !== generation) this.kept.set(driver, (kept = { generation, values: new Map() }));
    if (kept.values.has(key)) {
      const last = kept.values.get(key)!;
      if (!fresh || fresh(last)) return last;
    }
    const value = await read();
    // Kept only if nothing was written meanwhile (the generation it was read in still stands;
    // NaN, a feed that cannot bring news, never does).
    if (current() === generation) {
      if (kept.values.size >= this.max) kept.values.clear();
      kept.values.set(key, value);
    }
    return value;
  }
}
