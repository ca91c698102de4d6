// The embedded database: bun:sqlite behind drizzle's async session (see transactions.ts).
import { Database } from "bun:sqlite";
import { beginningTransaction, currentTransaction, SingleWriter, transactionVerb, type TransactionScope } from "./transactions";
import type { Driver, Method, Row } from "./driver";
import { localChanges } from "./changes";

export function sqliteDriver(path: string): Driver {
  const client = new Database(path, { create: true, strict: true });
  // WAL lets readers run while a write is in progress; foreign keys are off by default in SQLite.
  client.run("PRAGMA journal_mode = WAL");
  client.run("PRAGMA foreign_keys = ON");
  client.run("PRAGMA busy_timeout = 5000");
  client.run("PRAGMA synchronous = NORMAL");
  const writer = new SingleWriter();
  const changes = localChanges();

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
        return { rows: [] };
      }
      while (writer.blocks(scope)) await writer.next();
      return run(sql, params, method);
    },
    async raw(sql, params = []) {
      const scope = currentTransaction();
      while (writer.blocks(scope)) await writer.next();
      return client.query(sql).all(...(params as never[])) as Record<string, unknown>[];
    },
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
