// Read-side of accounts.
import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";

export async function countUsers(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(schema.users).get())?.n ?? 0;
}

const scopesRead = (db: Db) =>
  db
    .select({ scope: schema.userScopes.scope })
    .from(schema.userScopes)
    .where(eq(schema.userScopes.userId, sql.placeholder("userId")))
    .orderBy(schema.userScopes.scope)
    .prepare();

/** Its own scopes (one row each) and its roles' (a JSON list each), in one read: every request without a kept session asks it. */
const allScopesRead = (db: Db) =>
  db
    .select({ scope: sql<string | null>`${schema.userScopes.scope}`, roleScopes: sql<string | null>`cast(null as text)` })
    .from(schema.userScopes)
    .where(eq(schema.userScopes.userId, sql.placeholder("userId")))
    .unionAll(
      db
        .select({ scope: sql<string | null>`cast(null as text)`, roleScopes: sql<string | null>`${schema.roles.scopes}` })
        .from(schema.userRoles)
        .innerJoin(schema.roles, eq(schema.roles.id, schema.userRoles.roleId))
        .where(eq(schema.userRoles.userId, sql.placeholder("userId"))),
    )
    .prepare();

/** The scopes the account holds: its own and its roles' (what every check reads). */
export async function scopesOf(db: Db, userId: number): Promise<string[]> {
  const rows = await prepared(db, allScopesRead).all({ userId });
  const scopes = rows.flatMap((r) => (r.roleScopes !== null ? (JSON.parse(r.roleScopes) as string[]) : r.scope !== null ? [r.scope] : []));
  return [...new Set(scopes)].sort();
}

/** The scopes given to the account itself, without its roles' (what the permissions form edits). */
export async function ownScopesOf(db: Db, userId: number): Promise<string[]> {
  return (await prepared(db, scopesRead)
    .all({ userId }))
    .map((r) => r.scope);
}
