// Read-side of accounts.
import { count, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(schema.users).get()?.n ?? 0;
}

export function scopesOf(db: Db, userId: number): string[] {
  return db
    .select({ scope: schema.userScopes.scope })
    .from(schema.userScopes)
    .where(eq(schema.userScopes.userId, userId))
    .orderBy(schema.userScopes.scope)
    .all()
    .map((r) => r.scope);
}
