import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { journal, migrationSql } from "./migrations";
import { openDatabase } from ".";

test("the migrations index lists every generated migration (run npm run db:generate)", () => {
  const files = readdirSync(join(import.meta.dir, "migrations")).filter((f) => f.endsWith(".sql")).map((f) => f.replace(/\.sql$/, ""));
  expect(Object.keys(migrationSql).sort()).toEqual(files.sort());
  expect(journal.entries.map((e) => e.tag).sort()).toEqual(files.sort());
});

test("a fresh database is migrated, with foreign keys on", async () => {
  const db = await openDatabase(":memory:");
  const tables = (await db.$kiln.raw("select name from sqlite_master where type = 'table'")) as { name: string }[];
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["users", "sessions", "settings", "user_scopes", "user_settings"]));
  expect((await db.$kiln.raw("pragma foreign_keys"))[0]).toEqual({ foreign_keys: 1 });
});

test("migrating twice changes nothing", async () => {
  const dir = require("node:os").tmpdir();
  const path = join(dir, `kiln-mig-${process.pid}-${Date.now()}.db`);
  await (await openDatabase(path)).$kiln.close();
  const again = await openDatabase(path);
  expect(((await again.$kiln.raw("select count(*) as n from __drizzle_migrations"))[0] as { n: number }).n).toBe(journal.entries.length);
  expect((await again.$kiln.raw("pragma journal_mode"))[0]).toEqual({ journal_mode: "wal" });
});
