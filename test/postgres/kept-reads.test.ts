// Reads kept in memory on PostgreSQL (db/kept), as two panel processes on one database hold them
// (two connections, each with its own change feed): a read kept as "announced" (a list page) is
// made again once the other panel's write is announced (every table's trigger notifies at commit)
// and at once after a write of its own; while the feed is cut nothing is kept, and a write made
// meanwhile is seen once it is back; a session (kept on SQLite only) is refused on the very next
// read after the other panel deleted it. Every table carries the trigger.
import { afterEach, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import pg from "pg";
import { openDatabase, schema, type Db } from "../../db";
import { KeptLookups } from "../../db/kept";
import { createSession, findSessionUser } from "../../server/services/sessions";
import { createUser } from "../../server/services/users";
import { freshPostgresDatabase, hasPostgres, POSTGRES_URL } from "../helpers/database";
import { eventually } from "../helpers/node";

const enabled = hasPostgres();
const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.$kiln.close();
});

/** Two panels' handles on one new schema; `name` marks the first one's connections (application_name). */
async function twoPanels(name: string): Promise<[Db, Db]> {
  const url = new URL(await freshPostgresDatabase());
  const first = new URL(url);
  first.searchParams.set("application_name", name);
  const a = await openDatabase(first.toString());
  const b = await openDatabase(url.toString());
  opened.push(a, b);
  return [a, b];
}

/** A kept count of users, and how many times it went to the database. */
function keptUserCount() {
  const kept = new KeptLookups<string, number>(10, { announced: true });
  let reads = 0;
  return {
    get: (db: Db) => kept.get(db, "users", async () => (reads++, (await db.select({ n: count() }).from(schema.users).get())!.n)),
    reads: () => reads,
  };
}

let users = 0;
const addUser = (db: Db) => createUser(db, { email: `kept${++users}@example.com`, username: `kept${users}`, password: "password123", scopes: [] });

describe.if(enabled)("reads kept on PostgreSQL", () => {
  test("kept until another panel's write is announced; at once after a write of its own", async () => {
    const [a, b] = await twoPanels("kiln_kept_announced");
    const counted = keptUserCount();
    expect(await counted.get(a)).toBe(0);
    expect(await counted.get(a)).toBe(0);
    expect(counted.reads()).toBe(1);

    await addUser(b);
    await eventually(async () => (await counted.get(a)) === 1, 2_000, "the other panel's write to be announced");
    const readsBefore = counted.reads();
    expect(await counted.get(a)).toBe(1);
    expect(counted.reads()).toBe(readsBefore);

    await addUser(a);
    expect(await counted.get(a)).toBe(2);
  });

  test("while the change feed is cut nothing is kept, and a write made meanwhile is seen when it is back", async () => {
    const [a, b] = await twoPanels("kiln_kept_cut");
    const counted = keptUserCount();
    expect(await counted.get(a)).toBe(0);
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const cut = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'kiln_kept_cut' and query like 'listen %'");
      expect(cut.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await eventually(() => Number.isNaN(a.$kiln.announcedGeneration()), 2_000, "the feed to be seen cut");
    const readsBefore = counted.reads();
    await counted.get(a);
    await counted.get(a);
    expect(counted.reads()).toBe(readsBefore + 2);

    await addUser(b);
    expect(await counted.get(a)).toBe(1);
    // Back (it reconnects within a second), it keeps again.
    await eventually(() => !Number.isNaN(a.$kiln.announcedGeneration()), 5_000, "the feed to reconnect");
    expect(await counted.get(a)).toBe(1);
    const readsBack = counted.reads();
    expect(await counted.get(a)).toBe(1);
    expect(counted.reads()).toBe(readsBack);
  });

  test("a session is never kept on PostgreSQL: deleted through the other panel, refused on the very next read", async () => {
    const [a, b] = await twoPanels("kiln_kept_sessions");
    const { id } = await addUser(a);
    const token = await createSession(a, id);
    expect(await findSessionUser(a, token)).not.toBeNull();
    expect(await findSessionUser(a, token)).not.toBeNull();
    await b.delete(schema.sessions).run();
    expect(await findSessionUser(a, token)).toBeNull();
  });

  test("every table of the schema announces its writes", async () => {
    const [a] = await twoPanels("kiln_kept_triggers");
    const tables = await a.$kiln.raw("select tablename from pg_tables where schemaname = current_schema() and tablename <> 'kiln_migrations'");
    const triggered = await a.$kiln.raw("select distinct c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and t.tgname = 'kiln_announce_write'");
    expect(tables.length).toBeGreaterThan(20);
    expect(triggered.map((r) => r.relname).sort()).toEqual(tables.map((r) => r.tablename).sort());
  });
});
