// Where a transaction's queries belong. Both drivers run transactions through drizzle's async
// session, which sends "begin", the body's queries and "commit" as separate calls; the driver
// learns which calls are the body's from the async context a transaction opens, so a query from
// any other request waits (SQLite: one connection) or runs beside it (PostgreSQL: the pool).
import { AsyncLocalStorage } from "node:async_hooks";

export interface TransactionScope {
  /** true from "begin" until "commit"/"rollback" */
  open: boolean;
  /** the driver's connection held for this transaction */
  connection?: unknown;
}

const scopes = new AsyncLocalStorage<TransactionScope>();

/** The open transaction the calling code runs inside, if any. */
export function currentTransaction(): TransactionScope | undefined {
  const scope = scopes.getStore();
  return scope?.open ? scope : undefined;
}

/** The scope a transaction that is about to begin was given by inTransactionScope. */
export function beginningTransaction(): TransactionScope {
  const scope = scopes.getStore();
  if (!scope || scope.open) throw new Error("a transaction began outside inTransactionScope");
  return scope;
}

/**
 * Runs `work` outside any transaction: what a transaction's body sets going (a timer, a listener
 * told of a change) must not join the transaction by inheriting its async context.
 */
export function outsideTransaction<T>(work: () => T): T {
  return scopes.exit(work);
}

/** Runs `body` (which calls drizzle's transaction) in a scope of its own. */
export function inTransactionScope<T>(body: () => Promise<T>): Promise<T> {
  return scopes.run({ open: false }, body);
}

/** "begin", "commit" and "rollback" as drizzle's async session sends them. */
export function transactionVerb(sql: string): "begin" | "commit" | "rollback" | undefined {
  if (sql === "commit" || sql === "rollback") return sql;
  return sql === "begin" || sql.startsWith("begin ") ? "begin" : undefined;
}

/**
 * One writer at a time, for a database with a single connection: whoever holds it runs, every
 * other query waits until it is released.
 */
export class SingleWriter {
  private holder: TransactionScope | undefined;
  private released: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  /**
   * Whether a query of `scope` must wait. The caller tests and runs in one step (`while (blocks)
   * await next(); run`): a helper that awaited for it would return a microtask later, when a
   * transaction may have begun.
   */
  blocks(scope: TransactionScope | undefined): boolean {
    return this.holder !== undefined && this.holder !== scope;
  }

  /** Resolves when the holder of now gives the writer back. */
  next(): Promise<void> {
    return this.released;
  }

  async take(scope: TransactionScope): Promise<void> {
    // The test and the taking in one step: between an await and the next, another waiter woken by
    // the same release could take it too.
    while (this.holder) await this.released;
    this.holder = scope;
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  give(scope: TransactionScope): void {
    if (this.holder !== scope) return;
    this.holder = undefined;
    this.release();
  }

}
