// The settings table as one map, read again only when it may have changed: the public config and
// every page read three to five settings, and reading them each time was a third of a request's
// CPU. The map is read again after any write through this process (settingsWritten, at once) and
// when another panel process announces one (PostgreSQL), or when SQLite's data_version says
// another connection (a `kiln` command) committed; asking SQLite that costs as much as a read, so it is asked at most every
// OTHER_WRITERS_MS: another process's change shows here within that time.
import type { Driver } from "../../../db/drivers/driver";
import { currentTransaction } from "../../../db/drivers/transactions";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export const OTHER_WRITERS_MS = 250;

interface Kept {
  dataVersion: number;
  mark: number;
  checkedAt: number;
  writes: number;
  values: Map<string, string>;
}

/** Writes made through this process; a change makes every kept map stale. */
let writes = 0;
const kept = new WeakMap<Driver, Kept>();

/** After a write of settings: this process reads them again at once, every other panel process when told. */
export async function settingsWritten(db: Db): Promise<void> {
  writes++;
  await db.$kiln.announce("settings");
}

async function readAll(db: Db): Promise<Map<string, string>> {
  return new Map((await db.select().from(schema.settings).all()).map((row) => [row.key, row.value]));
}

/** Every stored setting by key. */
export async function storedSettings(db: Db): Promise<Map<string, string>> {
  const driver = db.$kiln;
  // Inside a transaction, read what it sees.
  if (currentTransaction()) return await readAll(db);
  const last = kept.get(driver);
  const now = Date.now();
  const mark = driver.changes.mark("settings");
  const fresh = last && last.writes === writes && last.mark === mark;
  // PostgreSQL's marks move when another panel announces a write; SQLite's other writers are seen through data_version.
  if (fresh && (!driver.sqlite || now - last.checkedAt < OTHER_WRITERS_MS)) return last.values;
  // "PRAGMA data_version" changes when another connection commits (never for this one's own writes).
  const dataVersion = driver.sqlite ? (driver.sqlite.query("PRAGMA data_version").get() as { data_version: number }).data_version : 0;
  if (fresh && last.dataVersion === dataVersion) {
    last.checkedAt = now;
    return last.values;
  }
  const values = await readAll(db);
  kept.set(driver, { dataVersion, mark, checkedAt: now, writes, values });
  return values;
}
