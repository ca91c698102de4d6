// Applies the committed drizzle-kit migrations at start-up, from the statically imported SQL
// (so a compiled binary needs no migrations folder on disk).
import { createHash } from "node:crypto";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { journal, migrationSql } from "./migrations";

interface MigrationMeta {
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

export function readMigrations(): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const query = migrationSql[entry.tag];
    if (query === undefined) throw new Error(`migration ${entry.tag} is not in db/migrations/index.ts; run npm run db:generate`);
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(query).digest("hex"),
    };
  });
}

export function applyMigrations(db: BunSQLiteDatabase<any>): void {
  // drizzle's own migrator, fed from memory instead of a folder.
  const internal = db as unknown as { dialect: { migrate(m: MigrationMeta[], s: unknown, c: object): void }; session: unknown };
  internal.dialect.migrate(readMigrations(), internal.session, {});
}
