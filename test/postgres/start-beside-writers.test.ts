// A panel starting beside panels already serving one PostgreSQL database: its start made every
// table's change trigger again ("create or replace trigger"), which locks each table against
// writes in turn. Beside the others' transactions, which lock tables in their own order, that was
// a deadlock PostgreSQL ended by failing the starting panel (seen in CI: two panels started
// together, 40P01, the process gone). A start now makes only missing triggers, and takes no lock
// on a table a running panel is writing.
import { expect, test } from "bun:test";
import pg from "pg";
import { applyPostgresMigrations } from "../../db/postgres/migrate";
import { openDatabase } from "../../db";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";

test.if(hasPostgres())("a start with every trigger in place does not wait for another panel's write transaction", async () => {
  const url = await freshPostgresDatabase();
  const first = await openDatabase(url);
  const writer = new pg.Client({ connectionString: url });
  await writer.connect();
  const starting = new pg.Pool({ connectionString: url, max: 2 });
  try {
    // Another panel's transaction holding its write lock on users, as a login's does.
    await writer.query("begin");
    await writer.query("lock table users in row exclusive mode");
    const started = applyPostgresMigrations(starting).then(() => "started");
    const waited = Bun.sleep(5_000).then(() => "waited for the writer");
    expect(await Promise.race([started, waited])).toBe("started");
  } finally {
    await writer.query("rollback").catch(() => undefined);
    await writer.end();
    await starting.end();
    await first.$kiln.close();
  }
}, 30_000);
