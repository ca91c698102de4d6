// The settings table as one map, kept in memory (db/kept): the public config and every page read
// three to five settings, and reading them each time was a third of a request's CPU.
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KeptRead } from "../../../db/kept";

const settings = new KeptRead("settings", async (db) => new Map((await db.select().from(schema.settings).all()).map((row) => [row.key, row.value])));

/** After a write of settings: this process reads them again at once, every other panel process when told. */
export async function settingsWritten(db: Db): Promise<void> {
  await settings.written(db);
}

/**
 * Every stored setting by key: one map while nothing is written (a write reads them into a new
 * one), so what is worked out from a map may be kept with it. Never changed in place.
 */
export function storedSettings(db: Db): Promise<ReadonlyMap<string, string>> {
  return settings.get(db);
}
