// The settings table as one map, read again only when it may have changed: the public config and
// every page read three to five settings, and reading them each time was a third of a request's
// CPU. The map is read again after any write through this process (settingsWritten, at once) and
// when SQLite's data_version says another connection (a `kiln` command, another process)
// committed; asking SQLite that costs as much as a read, so it is asked at most every
// OTHER_WRITERS_MS: another process's change shows here within that time.
import type { Database } from "bun:sqlite";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export const OTHER_WRITERS_MS = 250;

interface Kept {
  dataVersion: number;
  checkedAt: number;
  writes: number;
  values: Map<string, string>;
}

/** Writes made through this process; a change makes every kept map stale. */
let writes = 0;
const kept = new WeakMap<Database, Kept>();

export function settingsWritten(): void {
  writes++;
}

function readAll(db: Db): Map<string, string> {
  return new Map(db.select().from(schema.settings).all().map((row) => [row.key, row.value]));
}

/** Every stored setting by key. */
export function storedSettings(db: Db): Map<string, string> {
  // A transaction's handle has no client of its own: it reads what it sees.
  const client = (db as Partial<Db>).$client;
  if (!client) return readAll(db);
  const last = kept.get(client);
  const now = Date.now();
  if (last && last.writes === writes && now - last.checkedAt < OTHER_WRITERS_MS) return last.values;
  // "PRAGMA data_version" changes when another connection commits (never for this one's own writes).
  const dataVersion = (client.query("PRAGMA data_version").get() as { data_version: number }).data_version;
  if (last && last.writes === writes && last.dataVersion === dataVersion) {
    last.checkedAt = now;
    return last.values;
  }
  const values = readAll(db);
  kept.set(client, { dataVersion, checkedAt: now, writes, values });
  return values;
}
