// Copies an installation from one database to another (SQLite to PostgreSQL, or back): every
// table in the order its foreign keys need, in one transaction on the target, then both sides
// read again and compared by row count and a checksum per table. The source is only read.
import { createHash } from "node:crypto";
import { asc, count, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../../db";
import { tables } from "../../../db/postgres/ddl";
import { KilnError } from "../../../core/errors";

/** Rows that describe running panel processes, not the installation: each database has its own. */
const NOT_COPIED = new Set(["panel_instances", "leases"]);
const BATCH = 500;

export interface CopiedTable {
  table: string;
  rows: number;
  checksum: string;
}

/** Every table of the schema, each after the tables its foreign keys point at. */
export function tablesInOrder(): SQLiteTable[] {
  const all = tables();
  const ordered: SQLiteTable[] = [];
  const placed = new Set<SQLiteTable>();
  const place = (table: SQLiteTable, path: Set<SQLiteTable>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const fk of getTableConfig(table).foreignKeys) place(fk.reference().foreignTable as SQLiteTable, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of all) place(table, new Set());
  return ordered.filter((table) => !NOT_COPIED.has(getTableConfig(table).name));
}

/** The columns a table's rows are ordered by: its primary key. */
function keyColumns(table: SQLiteTable): SQLiteColumn[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((c) => c.primary);
  return single.length > 0 ? single : config.primaryKeys[0]!.columns;
}

async function* batches(db: Db, table: SQLiteTable) {
  const order = keyColumns(table).map((c) => asc(c));
  for (let offset = 0; ; offset += BATCH) {
    const rows = await db.select().from(table).orderBy(...order).limit(BATCH).offset(offset).all();
    if (rows.length > 0) yield rows as Record<string, unknown>[];
    if (rows.length < BATCH) return;
  }
}

/** Row count and SHA-256 of every row in key order, as the schema reads them (so both engines agree). */
export async function tableSummary(db: Db, table: SQLiteTable): Promise<CopiedTable> {
  const hash = createHash("sha256");
  let rows = 0;
  for await (const batch of batches(db, table)) {
    for (const row of batch) hash.update(JSON.stringify(row, (_, value) => (value instanceof Date ? value.getTime() : value)) + "\n");
    rows += batch.length;
  }
  return { table: getTableConfig(table).name, rows, checksum: hash.digest("hex").slice(0, 16) };
}

/** Copies every table from `source` into `target`, which must hold no rows; answers each table's figures, verified on both sides. */
export async function copyDatabase(source: Db, target: Db): Promise<CopiedTable[]> {
  const tables = tablesInOrder();
  for (const table of tables) {
    const [{ n }] = (await target.select({ n: count() }).from(table).all()) as [{ n: number }];
    if (n > 0) throw new KilnError("ErrFieldNotBetween", { field: "target" }, `the target database is not empty (${getTableConfig(table).name} has ${n} rows)`);
  }
  await target.transaction(async (tx) => {
    for (const table of tables) for await (const batch of batches(source, table)) await tx.insert(table).values(batch as never).run();
    // PostgreSQL's identity columns go on from the highest id copied.
    if (target.$kiln.dialect === "postgres") {
      for (const table of tables) {
        const name = getTableConfig(table).name;
        const id = getTableConfig(table).columns.find((c) => c.primary && c.name === "id" && c.columnType === "SQLiteInteger");
        if (id) await tx.run(sql.raw(`select setval(pg_get_serial_sequence('"${name}"', 'id'), greatest((select max(id) from "${name}"), 1), (select count(*) > 0 from "${name}"))`));
      }
    }
  });
  const figures: CopiedTable[] = [];
  for (const table of tables) {
    const [from, to] = [await tableSummary(source, table), await tableSummary(target, table)];
    if (from.rows !== to.rows || from.checksum !== to.checksum) throw new Error(`table ${from.table} differs after the copy: ${from.rows} rows (${from.checksum}) in the source, ${to.rows} (${to.checksum}) in the target`);
    figures.push(from);
  }
  return figures;
}
