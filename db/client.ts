// Opens the panel's database: SQLite (a file, or ":memory:" for tests) or PostgreSQL (a
// postgres:// URL), brings its schema up to date, and answers drizzle's queries through one
// async interface, so every service runs unchanged on either engine.
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import type { SQLiteTransactionConfig } from "drizzle-orm/sqlite-core";
import { drizzle as drizzleSync } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema";
import { applyMigrations } from "./migrate";
import { sqliteDriver } from "./drivers/sqlite";
import { postgresDriver } from "./drivers/postgres";
import { inTransactionScope, currentTransaction } from "./drivers/transactions";
import { isSerializationFailure } from "./drivers/errors";
import { applyPostgresMigrations } from "./postgres/migrate";
import type { Driver } from "./drivers/driver";

/**
 * The database as services use it. A transaction's handle is a Db too (with the same driver), so
 * a service takes either.
 */
export type Db = Omit<SqliteRemoteDatabase<typeof schema>, "transaction"> & {
  transaction<T>(body: (tx: Db) => Promise<T>, config?: SQLiteTransactionConfig): Promise<T>;
  $kiln: Driver;
};

/** Whether `location` names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//.test(location);

/** Enough for dozens of transactions racing for one row (test/postgres/transactions.test.ts). */
const RETRIES = 30;

/** `location`: a SQLite file path, "sqlite:<path>", ":memory:", or a postgres:// URL. */
export async function openDatabase(location: string, options: { poolSize?: number } = {}): Promise<Db> {
  let driver: Driver;
  if (isPostgresUrl(location)) {
    const pg = postgresDriver(location, { max: options.poolSize });
    try {
      await applyPostgresMigrations(pg.pool);
    } catch (error) {
      await pg.close();
      throw error;
    }
    driver = pg;
  } else {
    driver = sqliteDriver(location.replace(/^sqlite:/, ""));
    applyMigrations(drizzleSync({ client: driver.sqlite! }));
  }
  const remote = drizzle((sql, params, method) => driver.execute(sql, params, method) as never, { schema });
  const begin = remote.transaction.bind(remote);
  const db = Object.assign(remote, { $kiln: driver }) as unknown as Db;
  db.transaction = (body, config) => {
    // A transaction begun inside another joins it (SQLite has one connection; the writer is held).
    if (currentTransaction()) return body(db);
    return retried(() => inTransactionScope(() => begin((tx) => body(asDb(tx, driver)), config)));
  };
  return db;
}

/** A transaction's handle as a Db: with the driver, and its own nested transactions (savepoints) handled alike. */
function asDb(tx: Transaction, driver: Driver): Db {
  const savepoint = tx.transaction.bind(tx);
  return Object.assign(tx, {
    $kiln: driver,
    transaction: <T>(body: (inner: Db) => Promise<T>, config?: SQLiteTransactionConfig) => savepoint((inner) => body(asDb(inner, driver)), config),
  }) as unknown as Db;
}

type Transaction = Parameters<Parameters<SqliteRemoteDatabase<typeof schema>["transaction"]>[0]>[0];

/** Runs `attempt` again when PostgreSQL gave it up for racing another transaction. */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSerializationFailure(error) || tries >= RETRIES) throw error;
      await Bun.sleep(Math.random() * Math.min(50, 5 * tries));
    }
  }
}

export { schema };
