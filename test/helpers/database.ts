// Where a test's panel keeps its data: a fresh in-memory SQLite database, or, when
// KILN_TEST_POSTGRES_URL names a PostgreSQL server (.ci/run starts one), a fresh schema there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase, type Db } from "../../db";
import { partAvailable } from "./require-part";

export const POSTGRES_URL = process.env.KILN_TEST_POSTGRES_URL;

/** Whether a PostgreSQL server for tests is named (required under KILN_REQUIRE_ALL=1). */
export const hasPostgres = () => partAvailable("PostgreSQL (KILN_TEST_POSTGRES_URL; .ci/run starts one)", () => Boolean(POSTGRES_URL));

/** The panel suite runs on PostgreSQL when the runner sets KILN_TEST_ON_POSTGRES=1. */
export const onPostgres = () => process.env.KILN_TEST_ON_POSTGRES === "1" && Boolean(POSTGRES_URL);

/**
 * A new, empty PostgreSQL schema of its own, as a URL whose connections use it (search_path):
 * making a schema and its tables takes a fraction of what copying a whole database does.
 */
export async function freshPostgresDatabase(url = POSTGRES_URL!): Promise<string> {
  const schema = `kiln_t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}

/** Where a test panel's data goes: PostgreSQL in the runner's PostgreSQL pass, else memory. */
export async function testDatabaseLocation(): Promise<string> {
  return onPostgres() ? await freshPostgresDatabase() : ":memory:";
}

const openFresh = async () => openDatabase(await testDatabaseLocation(), { poolSize: 4 });

/**
 * On PostgreSQL, migrated schemas made ahead: making one (its tables, keys and indexes) takes a
 * quarter of a second, which runs while the test before it does.
 */
const ahead: Promise<Db>[] = [];
const AHEAD = 2;

/** A fresh test database, opened. */
export async function openTestDatabase(): Promise<Db> {
  if (!onPostgres()) return openFresh();
  while (ahead.length < AHEAD + 1) ahead.push(openFresh());
  return handedToFile(await ahead.shift()!);
}

/** The test file the databases in `handed` went to, and those databases. */
let handedFile: string | undefined;
const handed: Db[] = [];

/**
 * Each PostgreSQL database keeps a connection listening for the other panels' news (db/drivers/
 * changes), and a test panel is never closed: in a worker that runs file after file (bun's
 * --no-isolate), hundreds of them were left listening. Every write of every test (a trigger on
 * each table notifies) was then delivered to each, and the pass ran out of PostgreSQL's
 * connections ("sorry, too many clients already", 235 listening of 300 in one worker). A worker
 * runs its files one after another (Bun.main names the one running), so when a database goes to a
 * new file, the listening connections of those the files before were given are closed: nothing
 * of theirs is running any more, and what may still write there (a timer of a panel left open)
 * keeps its pool and counts its own writes.
 */
function handedToFile(db: Db): Db {
  if (handedFile !== Bun.main) {
    for (const done of handed.splice(0)) void done.$kiln.changes.close();
    handedFile = Bun.main;
  }
  handed.push(db);
  return db;
}

/**
 * Two connections to one new SQLite file, as the panel and a `kiln` command would hold them
 * (what one commits the other sees only through the file); removeSqliteFolders, run after each
 * test, removes the folder.
 */
export async function twoSqliteConnections(): Promise<[Db, Db]> {
  const dir = mkdtempSync(join(tmpdir(), "kiln-two-connections-"));
  sqliteFolders.push(dir);
  return [await openDatabase(join(dir, "kiln.db")), await openDatabase(join(dir, "kiln.db"))];
}

const sqliteFolders: string[] = [];

/** Removes the folders twoSqliteConnections made (a test file's afterEach). */
export function removeSqliteFolders(): void {
  for (const dir of sqliteFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
}
