// Read-side of accounts.
import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";

export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(schema.users).get()?.n ?? 0;
}

const scopesRead = (db: Db) =>
  db
    .select({ scope: schema.userScopes.scope })
    .from(schema.userScopes)
    .where(eq(schema.userScopes.userId, sql.placeholder("userId")))
    .orderBy(schema.userScopes.scope)
    .prepare();

export function scopesOf(db: Db, userId: number): string[] {
  return prepared(db, scopesRead)
    .all({ userId })
    .map((r) => r.scope);
}
