// Whether this panel can serve: its database answers and carries every migration this build
// knows (a load balancer sends requests only to a ready panel).
import { sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { journal } from "../../../db/migrations";
import { postgresMigrations } from "../../../db/postgres/migrations";

export interface Readiness {
  ready: boolean;
  database: "sqlite" | "postgres";
  /** why not, when not */
  reason?: "database" | "migrations";
}

export async function readiness(db: Db): Promise<Readiness> {
  const database = db.$kiln.dialect;
  try {
    await db.run(sql`select 1`);
    const applied = database === "postgres"
      ? (await db.$kiln.raw("select count(*) as n from kiln_migrations"))[0]?.n
      : (await db.$kiln.raw("select count(*) as n from __drizzle_migrations"))[0]?.n;
    const known = database === "postgres" ? postgresMigrations.length : journal.entries.length;
    if (Number(applied) < known) return { ready: false, database, reason: "migrations" };
    return { ready: true, database };
  } catch {
    return { ready: false, database, reason: "database" };
  }
}
