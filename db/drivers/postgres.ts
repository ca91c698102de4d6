// PostgreSQL behind drizzle's async session: a pool for queries outside transactions, one pooled
// connection held from "begin" to "commit" for each transaction (see transactions.ts).
// Transactions are SERIALIZABLE, as SQLite's are, so a check-then-write inside one (a free port,
// the last administrator) holds against another panel doing the same at the same moment.
import pg from "pg";
import { beginningTransaction, currentTransaction, transactionVerb } from "./transactions";
import { toPostgres } from "./postgres-sql";
import { isReadStatement as isRead, type Driver, type Row } from "./driver";
import { postgresChanges, TABLES_TOPIC } from "./changes";

// Integers are 64-bit here (times in milliseconds); Kiln's values stay far below 2^53.
pg.types.setTypeParser(20, Number);
pg.types.setTypeParser(1700, Number);
// A comparison or exists() answers 1/0, as it does in SQLite.
pg.types.setTypeParser(16, (value: string) => (value === "t" ? 1 : 0));

const names = new Map<string, string>();

/** A name per statement text, so each connection parses a statement once. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `kiln_${names.size}`));
  return name;
}

const toParam = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : value);

export function postgresDriver(url: string, options: { max?: number } = {}): Driver & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle connection the server dropped must not take the process down.
  pool.on("error", () => {});
  const changes = postgresChanges(() => new pg.Client({ connectionString: url }));
  // This process's writes, counted before each is sent and again once it is done (or its
  // transaction ends): a read made meanwhile is never kept under the count it ends with.
  let writes = 0;
  async function counted<T>(sql: string, run: () => Promise<T>): Promise<T> {
    if (isRead(sql)) return await run();
    writes++;
    try {
      return await run();
    } finally {
      writes++;
    }
  }
  const raw = async (sql: string, params: unknown[] = []) => {
    const connection = currentTransaction()?.connection as pg.PoolClient | undefined;
    return (await (connection ?? pool).query(toPostgres(sql), params.map(toParam))).rows;
  };

  return {
    dialect: "postgres",
    pool,
    async execute(sql, params, method) {
      const verb = transactionVerb(sql);
      if (verb === "begin") {
        const scope = beginningTransaction();
        const connection = await pool.connect();
        scope.connection = connection;
        scope.open = true;
        await connection.query("begin isolation level serializable");
        return { rows: [] };
      }
      const scope = currentTransaction();
      const connection = scope?.connection as pg.PoolClient | undefined;
      if (verb) {
        if (!scope || !connection) return { rows: [] };
        scope.open = false;
        scope.connection = undefined;
        try {
          await connection.query(verb);
        } finally {
          connection.release();
          writes++;
        }
        return { rows: [] };
      }
      const text = toPostgres(sql);
      const query = { name: statementName(text), text, values: params.map(toParam), rowMode: "array" as const };
      const result = await counted(sql, () => (connection ?? pool).query(query));
      if (method === "run") return { rows: [], changes: result.rowCount ?? 0 };
      if (method === "get") return { rows: result.rows[0] as Row | undefined };
      return { rows: result.rows as Row[] };
    },
    raw: (sql, params) => counted(sql, () => raw(sql, params)),
    announcedGeneration: () => writes + changes.mark(TABLES_TOPIC),
    changes,
    announce: (topic, detail) => changes.announce(topic, detail, raw),
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}
