// Applies the committed PostgreSQL migrations (db/postgres/migrations, imported so the compiled
// binary carries them) at start-up, then makes every table announce its writes. An advisory lock
// makes panels that start together take turns: the first applies, the others find them applied.
import { createHash } from "node:crypto";
import type pg from "pg";
import { CHANGES_CHANNEL, TABLES_TOPIC } from "../drivers/changes";
import { postgresMigrations } from "./migrations";
import { isSerializationFailure } from "../drivers/errors";

const LOCK = 0x6b696c6e; // "kiln"
/** Tries of the triggers' statement when it meets another panel's transactions in a deadlock. */
const ANNOUNCE_ATTEMPTS = 5;

export async function applyPostgresMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [LOCK]);
    await client.query("create table if not exists kiln_migrations (name text primary key, hash text not null, applied_at bigint not null)");
    const applied = new Set((await client.query<{ name: string }>("select name from kiln_migrations")).rows.map((r) => r.name));
    for (const { name, sql } of postgresMigrations) {
      if (applied.has(name)) continue;
      await client.query("begin");
      try {
        await client.query(sql);
        await client.query("insert into kiln_migrations (name, hash, applied_at) values ($1, $2, $3)", [name, createHash("sha256").update(sql).digest("hex"), Date.now()]);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    }
    // Creating a trigger locks its table against writes: beside a panel already serving, a lock
    // taken table after table can meet its transactions' in the other order (a deadlock, which
    // PostgreSQL ends by failing one side). Only missing triggers are made, and a deadlock is
    // tried again: a panel starting beside others must not fail its start for it.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(ANNOUNCE_WRITES);
        break;
      } catch (error) {
        if (!isSerializationFailure(error) || attempt >= ANNOUNCE_ATTEMPTS) throw error;
        await Bun.sleep(100 * attempt);
      }
    }
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK]).catch(() => {});
    client.release();
  }
}

/**
 * Every table of the schema (those a later migration adds too: this runs at each start, making the
 * triggers that are missing) notifies
 * the panels' change feed once per transaction that writes it, at commit, so what a panel keeps in
 * memory of it (db/kept: announcedGeneration) is read again when another panel wrote. One trigger
 * per table, for each statement (a row trigger would fire per row); notifications of one
 * transaction with the same text are sent once.
 */
export const ANNOUNCE_WRITES = `
create or replace function kiln_announce_write() returns trigger language plpgsql as $fn$
begin
  perform pg_notify('${CHANGES_CHANNEL}', '${TABLES_TOPIC}' || chr(10) || tg_table_schema);
  return null;
end
$fn$;
do $do$
declare t record;
begin
  for t in select tablename from pg_tables where schemaname = current_schema() and tablename <> 'kiln_migrations'
      and not exists (select 1 from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
                      where n.nspname = current_schema() and c.relname = tablename and g.tgname = 'kiln_announce_write') loop
    execute format('create trigger kiln_announce_write after insert or update or delete or truncate on %I for each statement execute function kiln_announce_write()', t.tablename);
  end loop;
end
$do$;`;

/** Whether every committed migration is applied (the readiness probe asks). */
export async function postgresMigrationsApplied(pool: pg.Pool): Promise<boolean> {
  const rows = (await pool.query<{ name: string }>("select name from kiln_migrations")).rows;
  const applied = new Set(rows.map((r) => r.name));
  return postgresMigrations.every((m) => applied.has(m.name));
}
