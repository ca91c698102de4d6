// Opens the SQLite database with the pragmas Kiln relies on and brings its schema up to date.
import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { applyMigrations } from "./migrate";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** `path` is a file path or ":memory:" (each test gets a fresh one). */
export function openDatabase(path: string): Db {
  const sqlite = new Database(path, { create: true, strict: true });
  // WAL lets readers run while a write is in progress; foreign keys are off by default in SQLite.
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA synchronous = NORMAL");
  const db = drizzle({ client: sqlite, schema }) as Db;
  applyMigrations(db);
  return db;
}

export { schema };
