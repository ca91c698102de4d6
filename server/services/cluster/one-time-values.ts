// Short-lived values one request makes and a later one uses (a passkey challenge, an import's
// notes), kept in the database so the later request may reach another panel process.
import { and, count, eq, gt, lt } from "drizzle-orm";
import { schema, type Db } from "../../../db";

const row = (kind: string, key: string) => and(eq(schema.oneTimeValues.kind, kind), eq(schema.oneTimeValues.key, key));

export async function putValue(db: Db, kind: string, key: string, value: string, expiresAt: number): Promise<void> {
  await db.insert(schema.oneTimeValues).values({ kind, key, value, expiresAt }).onConflictDoUpdate({ target: [schema.oneTimeValues.kind, schema.oneTimeValues.key], set: { value, expiresAt } }).run();
}

/** Records `key` as used; false when it already was (by this request's rival too: one insert, so exactly one wins). */
export async function markUsed(db: Db, kind: string, key: string, expiresAt: number): Promise<boolean> {
  const made = await db.insert(schema.oneTimeValues).values({ kind, key, value: "", expiresAt }).onConflictDoNothing().returning({ key: schema.oneTimeValues.key }).all();
  return made.length === 1;
}

/** The value, unless it expired. */
export async function readValue(db: Db, kind: string, key: string, now = Date.now()): Promise<string | undefined> {
  const found = await db.select().from(schema.oneTimeValues).where(row(kind, key)).get();
  return found && found.expiresAt > now ? found.value : undefined;
}

/** The value, removed in the same step, so that only one request ever gets it. */
export async function takeValue(db: Db, kind: string, key: string, now = Date.now()): Promise<string | undefined> {
  const taken = await db.delete(schema.oneTimeValues).where(row(kind, key)).returning().get();
  return taken && taken.expiresAt > now ? taken.value : undefined;
}

/** How many values of `kind` have not expired. */
export async function countLive(db: Db, kind: string, now = Date.now()): Promise<number> {
  return (await db.select({ n: count() }).from(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, kind), gt(schema.oneTimeValues.expiresAt, now))).get())?.n ?? 0;
}

/** Drops expired values of `kind` (for a kind that fills faster than the hourly purge empties it). */
export async function purgeExpiredOf(db: Db, kind: string, now = Date.now()): Promise<void> {
  await db.delete(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, kind), lt(schema.oneTimeValues.expiresAt, now))).run();
}

/** Drops expired values of every kind (run with the hourly session purge). */
export async function purgeExpiredValues(db: Db, now = Date.now()): Promise<void> {
  await db.delete(schema.oneTimeValues).where(lt(schema.oneTimeValues.expiresAt, now)).run();
}
