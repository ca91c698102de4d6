// Panel-wide settings (spec section 3); the full settings API arrives with the accounts issue.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export const SETTING_KEYS = {
  masterUrl: "panel.settings.masterUrl",
  companyName: "panel.settings.companyName",
  defaultTheme: "panel.settings.defaultTheme",
  registrationEnabled: "panel.registrationEnabled",
} as const;

export function getSetting(db: Db, key: string): string | undefined {
  return db.select({ value: schema.settings.value }).from(schema.settings).where(eq(schema.settings.key, key)).get()?.value;
}

export function setSetting(db: Db, key: string, value: string): void {
  db.insert(schema.settings).values({ key, value }).onConflictDoUpdate({ target: schema.settings.key, set: { value } }).run();
}
