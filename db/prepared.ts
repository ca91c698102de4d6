// Statements compiled once per database: drizzle builds a query's SQL and SQLite compiles it on
// every call, which was most of the CPU of the reads every request makes (the session, the
// settings a page shows). A statement is made by a function of its own at module level; its
// values come as placeholders (`sql.placeholder`), filled in as the database stores them.
import type { Db } from "./client";

const statements = new WeakMap<Db, Map<(db: Db) => unknown, unknown>>();

/** `make(db)`'s prepared statement, made on first use for `db` and kept as long as `db` is. */
export function prepared<T>(db: Db, make: (db: Db) => T): T {
  let made = statements.get(db);
  if (!made) statements.set(db, (made = new Map()));
  if (!made.has(make)) made.set(make, make(db));
  return made.get(make) as T;
}
