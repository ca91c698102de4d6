// Per-user preferences (spec section 3: dark, preferredTheme), stored as key/value text.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";

export function listUserSettings(db: Db, userId: number): { key: string; value: string }[] {
  return db
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

export function getUserSetting(db: Db, userId: number, key: string): string | undefined {
  return prepared(db, userSettingRead).get({ userId, key })?.value;
}

export function setUserSetting(db: Db, userId: number, key: string, value: string): void {
  db.insert(schema.userSettings)
    .values({ userId, key, value })
    .onConflictDoUpdate({ target: [schema.userSettings.userId, schema.userSettings.key], set: { value } })
    .run();
}
