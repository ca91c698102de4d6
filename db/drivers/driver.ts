// What Kiln needs from a database engine: run one statement the way drizzle's async session asks
// (rows as arrays of column values), run raw SQL for tooling, close. Statements arrive in
// SQLite's dialect (the one schema is SQLite's); a driver for another engine translates them.
import type { Database } from "bun:sqlite";
import type { ChangeFeed } from "./changes";

export type Method = "run" | "all" | "values" | "get";
export type Row = unknown[];

export interface Driver {
  dialect: "sqlite" | "postgres";
  execute(sql: string, params: unknown[], method: Method): Promise<{ rows: Row[] | Row | undefined; changes?: number }>;
  /** rows as objects keyed by column name; SQL in the engine's own dialect */
  raw(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** News of changes other panel processes may hold in memory (./changes). */
  changes: ChangeFeed;
  /** Tells every panel process that `topic` changed; inside a transaction, at its commit. */
  announce(topic: string, detail?: string): Promise<void>;
  close(): Promise<void>;
  /** the SQLite connection, for SQLite-only upkeep (backups) */
  sqlite?: Database;
  /**
   * SQLite only: a number that moves whenever the database may have changed since it was last
   * asked: at once for a write through this connection, within OTHER_WRITERS_MS for another
   * connection's commit (a `kiln` command). What is kept in memory is kept while it stands.
   * PostgreSQL has none: other panels' writes reach this one only as announcements (./changes).
   */
  generation?(): number;
  /**
   * Like generation(), but another panel process's write may reach it a moment late: at once for
   * a write through this driver; on PostgreSQL, when the database announces another connection's
   * write (a trigger on every table notifies at commit: ./changes), NaN while that news cannot
   * arrive. For what may be a moment stale (a list page), never for a right (a session).
   */
  announcedGeneration(): number;
}

/** Whether a statement only reads: anything else counts as a write (a CTE, a pragma that sets). */
export function isReadStatement(sql: string): boolean {
  return sql.startsWith("select ") || /^\s*select\s/i.test(sql);
}
