// The time leases and panel liveness are judged by. Several panels on one PostgreSQL database each
// have their own clock, and two whose clocks differ by more than a lease's life would both hold
// it (a job run twice); the database's clock is one for all of them. One SQLite database has one
// panel process, whose own clock is that one.
import type { Db } from "../../../db";

export async function clusterNow(db: Db): Promise<number> {
  if (db.$kiln.dialect !== "postgres") return Date.now();
  const [row] = await db.$kiln.raw("select (extract(epoch from clock_timestamp()) * 1000)::bigint as now");
  return Number(row?.now);
}
