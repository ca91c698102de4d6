// The two engines hold the same data in the same shape. PostgreSQL's committed migrations make
// exactly the tables db/postgres/ddl says from the one schema (a migration written by hand for a
// later change must keep that true), and SQLite's migrations the same tables, columns, nullability,
// keys and cascades.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { ANNOUNCE_WRITES } from "../../db/postgres/migrate";
import { openDatabase } from "../../db";
import { postgresSchema } from "../../db/postgres/ddl";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";

const enabled = hasPostgres();

async function catalog(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const schema = (await client.query("select current_schema() as s")).rows[0].s as string;
    const q = async (sql: string) => (await client.query(sql, [schema])).rows;
    return {
      columns: await q(`select table_name, column_name, data_type, is_nullable, column_default, is_identity from information_schema.columns where table_schema = $1 and table_name <> 'kiln_migrations' order by table_name, column_name`),
      constraints: await q(`select tc.table_name, tc.constraint_name, tc.constraint_type, rc.update_rule, rc.delete_rule,
          (select string_agg(column_name, ',' order by ordinal_position) from information_schema.key_column_usage k where k.constraint_name = tc.constraint_name and k.table_schema = $1) as columns
        from information_schema.table_constraints tc left join information_schema.referential_constraints rc on rc.constraint_name = tc.constraint_name and rc.constraint_schema = $1
        where tc.table_schema = $1 and tc.table_name <> 'kiln_migrations' and tc.constraint_type <> 'CHECK' order by tc.table_name, tc.constraint_name`),
      indexes: (await q(`select tablename, indexname, indexdef from pg_indexes where schemaname = $1 and tablename <> 'kiln_migrations' order by tablename, indexname`)).map((row) => ({ ...row, indexdef: String(row.indexdef).replace(`${schema}.`, "") })),
      triggers: await q(`select event_object_table, trigger_name from information_schema.triggers where trigger_schema = $1 order by 1, 2`),
    };
  } finally {
    await client.end();
  }
}

describe.if(enabled)("one schema, two engines", () => {
  test("the committed PostgreSQL migrations make exactly the tables the schema describes", async () => {
    const migrated = await freshPostgresDatabase();
    await (await openDatabase(migrated)).$kiln.close();
    const described = await freshPostgresDatabase();
    const client = new pg.Client({ connectionString: described });
    await client.connect();
    await client.query(postgresSchema().join(";\n"));
    // What every start adds to the migrated tables: each announces its writes.
    await client.query(ANNOUNCE_WRITES);
    await client.end();
    const [a, b] = [await catalog(migrated), await catalog(described)];
    expect(a.columns.length).toBeGreaterThan(100);
    expect(a).toEqual(b);
  });

  test("the baseline migration is the schema as it stood when it was written (npm run db:generate writes it)", () => {
    const baseline = readFileSync(join(import.meta.dir, "../../db/postgres/migrations/0000_baseline.sql"), "utf8");
    expect(baseline.startsWith("create or replace function kiln_assign_id()")).toBe(true);
    expect(baseline).toContain('create table "users"');
  });

  test("SQLite and PostgreSQL have the same tables, columns, nullability, primary keys and foreign keys with their cascades", async () => {
    const sqlite = await openDatabase(":memory:");
    const postgres = await freshPostgresDatabase();
    const pgDb = await openDatabase(postgres);
    try {
      const tables = (await sqlite.$kiln.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> '__drizzle_migrations' order by name")).map((r) => String(r.name));
      const pgTables = (await pgDb.$kiln.raw("select table_name as name from information_schema.tables where table_schema = current_schema() and table_name <> 'kiln_migrations' order by 1")).map((r) => String(r.name));
      expect(pgTables).toEqual(tables);
      for (const table of tables) {
        const lite = (await sqlite.$kiln.raw(`select name, "notnull" as nn, pk from pragma_table_info('${table}') order by name`)).map((c) => ({ name: c.name, notNull: Boolean(c.nn) || Number(c.pk) > 0, key: Number(c.pk) > 0 }));
        const keyColumns = new Set((await pgDb.$kiln.raw(`select k.column_name from information_schema.table_constraints t join information_schema.key_column_usage k on k.constraint_name = t.constraint_name and k.table_schema = t.table_schema where t.table_schema = current_schema() and t.table_name = '${table}' and t.constraint_type = 'PRIMARY KEY'`)).map((r) => r.column_name));
        const post = (await pgDb.$kiln.raw(`select column_name as name, is_nullable from information_schema.columns where table_schema = current_schema() and table_name = '${table}' order by column_name`)).map((c) => ({ name: c.name, notNull: c.is_nullable === "NO", key: keyColumns.has(c.name) }));
        expect({ table, columns: post }).toEqual({ table, columns: lite });
        const liteKeys = (await sqlite.$kiln.raw(`select "table" as target, "from" as col, "to" as ref, on_delete from pragma_foreign_key_list('${table}') order by "from"`)).map((f) => `${f.col}->${f.target}.${f.ref} ${String(f.on_delete).toLowerCase()}`);
        const pgKeys = (await pgDb.$kiln.raw(`select k.column_name as col, u.table_name as target, u.column_name as ref, r.delete_rule from information_schema.referential_constraints r
            join information_schema.key_column_usage k on k.constraint_name = r.constraint_name and k.table_schema = r.constraint_schema
            join information_schema.constraint_column_usage u on u.constraint_name = r.constraint_name and u.constraint_schema = r.constraint_schema
            where r.constraint_schema = current_schema() and k.table_name = '${table}' order by k.column_name`)).map((f) => `${f.col}->${f.target}.${f.ref} ${String(f.delete_rule).toLowerCase()}`);
        expect({ table, keys: pgKeys }).toEqual({ table, keys: liteKeys });
      }
    } finally {
      await pgDb.$kiln.close();
      await sqlite.$kiln.close();
    }
  });
});
