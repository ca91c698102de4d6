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

const roleScopesRead = (db: Db) =>
  db
    .select({ scopes: schema.roles.scopes })
    .from(schema.userRoles)
    .innerJoin(schema.roles, eq(schema.roles.id, schema.userRoles.roleId))
    .where(eq(schema.userRoles.userId, sql.placeholder("userId")))
    .prepare();

/** The scopes the account holds: its own and its roles' (what every check reads). */
export async function scopesOf(db: Db, userId: number): Promise<string[]> {
  const own = await ownScopesOf(db, userId);
  const fromRoles = await prepared(db, roleScopesRead).all({ userId });
  if (fromRoles.length === 0) return own;
  return [...new Set([...own, ...fromRoles.flatMap((r) => JSON.parse(r.scopes) as string[])])].sort();
}

/** The scopes given to the account itself, without its roles' (what the permissions form edits). */
export async function ownScopesOf(db: Db, userId: number): Promise<string[]> {
  return (await prepared(db, scopesRead)
    .all({ userId }))
    .map((r) => r.scope);
}
