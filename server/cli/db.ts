// kiln db migrate-to <url>: copies this installation's database (KILN_DATABASE_URL, database.url,
// or <data>/kiln.db) into another, empty one — postgres://… or sqlite:<path> — checks every table
// on both sides, and says what to change. The source is not changed.
import { mkdirSync } from "node:fs";
import { openDatabase, isPostgresUrl, type Db } from "../../db";
import { KilnError } from "../../core/errors";
import type { KilnConfig } from "../config";
import type { ParsedArgs } from "./args";
import { copyDatabase } from "../services/database/copy";

const USAGE = "usage: kiln db migrate-to postgres://user:password@host:5432/database | sqlite:/path/to/kiln.db";

export async function dbCommand(config: KilnConfig, args: ParsedArgs): Promise<number> {
  const [, verb, target] = args.positional;
  if (verb !== "migrate-to" || !target || !(isPostgresUrl(target) || /^sqlite:./.test(target))) {
    console.error(`kiln db: ${USAGE}`);
    return 2;
  }
  const where = isPostgresUrl(target) ? target : target.slice("sqlite:".length);
  if (where === config.database) {
    console.error("kiln db: the target is the database this installation uses already");
    return 2;
  }
  mkdirSync(config.dataDir, { recursive: true });
  let source: Db | undefined;
  let copy: Db | undefined;
  try {
    source = await openDatabase(config.database);
    copy = await openDatabase(where);
    const tables = await copyDatabase(source, copy);
    for (const { table, rows, checksum } of tables) console.log(`  ${table.padEnd(24)} ${String(rows).padStart(8)} rows  ${checksum}`);
    console.log(`kiln db: copied ${tables.reduce((n, t) => n + t.rows, 0)} rows in ${tables.length} tables; both sides read back the same.`);
    console.log(`kiln db: to use it, stop the panel, set KILN_DATABASE_URL=${target} (or "database": { "url": "${target}" } in the config file) and start it again. The old database is left as it was.`);
    return 0;
  } catch (error) {
    const message = error instanceof KilnError ? error.message : (error as Error).message;
    console.error(`kiln db: ${message.replace(/postgres(ql)?:\/\/[^@\s]*@/g, "postgres://…@")}`);
    return 1;
  } finally {
    await copy?.$kiln.close();
    await source?.$kiln.close();
  }
}
