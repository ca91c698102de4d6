// Errors both engines raise, recognised by their own codes (drizzle wraps the driver's error as its cause).

function codeOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

/** A unique key refused a row (SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** PostgreSQL gave up a serializable transaction that another one raced; running it again succeeds. */
export function isSerializationFailure(error: unknown): boolean {
  const code = codeOf(error);
  return code === "40001" || code === "40P01";
}
