// Per-user preferences (dark, preferredTheme), stored as key/value text.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";
import { KeptLookups } from "../../../db/kept";

export async function listUserSettings(db: Db, userId: number): Promise<{ key: string; value: string }[]> {
  return await db
    .select({ key: schema.userSettings.key, value: schema.userSettings.value })
    .from(schema.userSettings)
    .where(eq(schema.userSettings.userId, userId))
    .all();
}

const userSettingRead = (db: Db) =>
  db
    .select({ value: schema.userSettings.value })
    .from(schema.userSettings)
    .where(and(eq(schema.userSettings.userId, sql.placeholder("userId")), eq(schema.userSettings.key, sql.placeholder("key"))))
    .prepare();

/** Every page reads the viewer's theme and dark preference: kept while nothing is written (db/kept; on PostgreSQL until another panel's write is announced). */
const keptSettings = new KeptLookups<string, string | undefined>(10_000, { announced: true });

export async function getUserSetting(db: Db, userId: number, key: string): Promise<string | undefined> {
  return await keptSettings.get(db, `${userId}\u0000${key}`, async () => (await prepared(db, userSettingRead).get({ userId, key }))?.value);
}

export async function setUserSetting(db: Db, userId: number, key: string, value: string): Promise<void> {
  await db.insert(schema.userSettings)
    .values({ userId, key, value })
    .onConflictDoUpdate({ target: [schema.userSettings.userId, schema.userSettings.key], set: { value } })
    .run();
}
