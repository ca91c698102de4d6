// Every row of every table of a panel's database: what a refused call must leave as it was.
import { getTableName } from "drizzle-orm";
import type { Db } from "../../db";
import { tables } from "../../db/postgres/ddl";

export async function everyRow(db: Db): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of tables()) rows[getTableName(table)] = await db.select().from(table as never);
  return rows;
}
