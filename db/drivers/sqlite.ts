// The embedded database: bun:sqlite behind drizzle's async session (see transactions.ts).
import { Database } from "bun:sqlite";
import { beginningTransaction, currentTransaction, SingleWriter, transactionVerb, type TransactionScope } from "./transactions";
import { isReadStatement as isRead, type Driver, type Method, type Row } from "./driver";
import { localChanges } from "./changes";

/** Another connection's commit shows in generation() within this time (asking costs as much as a read). */
export const OTHER_WRITERS_MS = 250;

/** The driver's generation(): counts this connection's writes, and other connections' commits as data_version shows them. */
function sqliteGeneration(client: Database) {
  let generation = 0;
  let dataVersion = -1;
  let checkedAt = -Infinity;
  return {
    wrote() {
      generation++;
    },
    current(): number {
      const now = Date.now();
      if (now - checkedAt >= OTHER_WRITERS_MS) {
        // "PRAGMA data_version" changes when another connection commits (never for this one's own writes).
        const seen = (client.query("PRAGMA data_version").get() as { data_version: number }).data_version;
        if (seen !== dataVersion) generation++;
        dataVersion = seen;
        checkedAt = now;
      }
      return generation;
    },
  };
}

export function sqliteDriver(path: string): Driver {
  const client = new Database(path, { create: true, strict: true });
  // WAL lets readers run while a write is in progress; foreign keys are off by default in SQLite.
  client.run("PRAGMA journal_mode = WAL");
  client.run("PRAGMA foreign_keys = ON");
  client.run("PRAGMA busy_timeout = 5000");
  client.run("PRAGMA synchronous = NORMAL");
  const writer = new SingleWriter();
  const changes = localChanges();
  const generation = sqliteGeneration(client);

  function run(sql: string, params: unknown[], method: Method) {
    // client.query caches the compiled statement by its text.
    const statement = client.query(sql);
    const values = params as never[];
    if (method === "run") return { rows: [], changes: statement.run(...values).changes };
    if (method === "get") return { rows: statement.values(...values)[0] as Row | undefined };
    return { rows: statement.values(...values) as Row[] };
  }

  return {
    dialect: "sqlite",
    async execute(sql, params, method) {
      const verb = transactionVerb(sql);
      if (verb === "begin") {
        const scope = beginningTransaction();
        await writer.take(scope);
        scope.open = true;
        client.run("BEGIN IMMEDIATE");
        return { rows: [] };
      }
      const scope = currentTransaction();
      if (verb) {
        if (scope && client.inTransaction) client.run(verb.toUpperCase());
        end(scope);
        generation.wrote();
        return { rows: [] };
      }
      while (writer.blocks(scope)) await writer.next();
      if (!isRead(sql)) generation.wrote();
      return run(sql, params, method);
    },
    async raw(sql, params = []) {
      const scope = currentTransaction();
      while (writer.blocks(scope)) await writer.next();
      if (!isRead(sql)) generation.wrote();
      return client.query(sql).all(...(params as never[])) as Record<string, unknown>[];
    },
    generation: generation.current,
    announcedGeneration: generation.current,
    changes,
    announce: (topic, detail) => changes.announce(topic, detail),
    async close() {
      client.close();
    },
    sqlite: client,
  };

  function end(scope: TransactionScope | undefined) {
    if (!scope) return;
    scope.open = false;
    writer.give(scope);
  }
}
