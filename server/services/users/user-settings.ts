// Per-user preferences (spec section 3: dark, preferredTheme), stored as key/value text.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export function listUserSettings(db: Db, userId: number): { key: string; value: string }[] {
  return db
    .select({ key: schema.userSettings.key, value: schema.userSettings.value })
    .from(schema.userSettings)
    .where(eq(schema.userSettings.userId, userId))
    .all();
}

export function getUserSetting(db: Db, userId: number, key: string): string | undefined {
  return db
    .select({ value: schema.userSettings.value })
    .from(schema.userSettings)
    .where(and(eq(schema.userSettings.userId, userId), eq(schema.userSettings.key, key)))
    .get()?.value;
}

export function setUserSetting(db: Db, userId: number, key: string, value: string): void {
  db.insert(schema.userSettings)
    .values({ userId, key, value })
    .onConflictDoUpdate({ target: [schema.userSettings.userId, schema.userSettings.key], set: { value } })
    .run();
}
