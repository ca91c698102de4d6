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

test("a fresh database is migrated, with foreign keys on", () => {
  const db = openDatabase(":memory:");
  const tables = db.$client.query("select name from sqlite_master where type = 'table'").all() as { name: string }[];
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["users", "sessions", "settings", "user_scopes", "user_settings"]));
  expect(db.$client.query("pragma foreign_keys").get()).toEqual({ foreign_keys: 1 });
});

test("migrating twice changes nothing", () => {
  const dir = require("node:os").tmpdir();
  const path = join(dir, `kiln-mig-${process.pid}-${Date.now()}.db`);
  openDatabase(path).$client.close();
  const again = openDatabase(path);
  expect((again.$client.query("select count(*) as n from __drizzle_migrations").get() as { n: number }).n).toBe(journal.entries.length);
  expect(again.$client.query("pragma journal_mode").get()).toEqual({ journal_mode: "wal" });
});
