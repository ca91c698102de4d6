// Reading the activity log, with its one visibility rule: an administrator reads every row;
// anyone else their own (what they or their OAuth2 clients did, and logins to their account) and
// the rows of servers where they hold viewActivity. Addresses are shown to administrators and on
// the reader's own rows only: a server's co-users do not learn each other's IP addresses.
import { and, desc, eq, gte, inArray, like, lte, or, sql, count, type SQL } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { isEventPattern, type ActorType } from "../../../core/activity";
import type { SessionUser } from "../sessions";
import { authorize, isAdminUser } from "../servers/permissions";

export interface ActivityFilter {
  serverId?: string;
  /** Rows done by this user (or their clients), or about them. */
  userId?: number;
  /** Catalogue names or wildcards ("server.file.*"), any of which a row may match; a comma-separated text is read as a list. */
  event?: string | string[];
  since?: number;
  until?: number;
  page: number;
  limit: number;
}

export interface ActivityView {
  id: number;
  event: string;
  actor: { type: ActorType; id?: string; name?: string };
  serverId?: string;
  subject?: string;
  ip?: string;
  properties: Record<string, unknown>;
  at: string;
}

type Row = typeof schema.activity.$inferSelect;

export async function listActivity(db: Db, user: SessionUser, filter: ActivityFilter): Promise<{ events: ActivityView[]; total: number }> {
  const patterns = typeof filter.event === "string" ? filter.event.split(",").map((p) => p.trim()).filter(Boolean) : (filter.event ?? []);
  if (patterns.length > 20 || !patterns.every(isEventPattern)) throw new KilnError("ErrFieldNotBetween", { field: "event" });
  const admin = await isAdminUser(db, user) && !user.serverId;
  const conditions: (SQL | undefined)[] = [];
  if (!admin) conditions.push(await visibleTo(db, user));
  if (filter.serverId !== undefined) {
    if (!admin) await authorize(db, user, filter.serverId, "viewActivity");
    conditions.push(eq(schema.activity.serverId, filter.serverId));
  }
  if (filter.userId !== undefined) conditions.push(aboutUser(filter.userId));
  if (patterns.length > 0 && !patterns.includes("*")) conditions.push(or(...patterns.map((p) => (p.endsWith(".*") ? like(schema.activity.event, `${p.slice(0, -1)}%`) : eq(schema.activity.event, p)))));
  if (filter.since !== undefined) conditions.push(gte(schema.activity.at, filter.since));
  if (filter.until !== undefined) conditions.push(lte(schema.activity.at, filter.until));
  const where = and(...conditions);
  const total = (await db.select({ n: count() }).from(schema.activity).where(where).get())?.n ?? 0;
  const rows = await db.select().from(schema.activity).where(where).orderBy(desc(schema.activity.at), desc(schema.activity.id)).limit(filter.limit).offset((filter.page - 1) * filter.limit).all();
  return { events: rows.map((row) => activityView(row, admin || ownRow(row, user.id))), total };
}

/** Every row in the order the log keeps, a batch at a time (the CSV export); same rule as listActivity. */
export async function* allActivity(db: Db, user: SessionUser, filter: Omit<ActivityFilter, "page" | "limit">, batch = 1000): AsyncGenerator<ActivityView> {
  for (let page = 1; ; page++) {
    const { events } = await listActivity(db, user, { ...filter, page, limit: batch });
    yield* events;
    if (events.length < batch) return;
  }
}

async function visibleTo(db: Db, user: SessionUser): Promise<SQL | undefined> {
  const servers = user.serverId
    ? [user.serverId]
    : (await db.select({ serverId: schema.serverUsers.serverId, flags: schema.serverUsers.flags }).from(schema.serverUsers).where(eq(schema.serverUsers.userId, user.id)).all()).filter((row) => row.flags.includes("viewActivity")).map((row) => row.serverId);
  const readable = [];
  for (const id of servers) if (!user.serverId || (await safeAllows(db, user, id))) readable.push(id);
  // A client bound to one server reads that server's rows (when its owner may), not the account's.
  const own = user.serverId ? undefined : aboutUser(user.id);
  return or(own, readable.length > 0 ? inArray(schema.activity.serverId, readable) : undefined) ?? sql`0`;
}

async function safeAllows(db: Db, user: SessionUser, serverId: string): Promise<boolean> {
  try {
    await authorize(db, user, serverId, "viewActivity");
    return true;
  } catch {
    return false;
  }
}

/** Done by the user or a client of theirs, or about their account (a login to it, a change to it). */
function aboutUser(userId: number): SQL {
  return or(and(eq(schema.activity.actorType, "user"), eq(schema.activity.actorId, String(userId))), eq(schema.activity.onBehalfOf, userId), and(like(schema.activity.event, "user.%"), eq(schema.activity.subject, String(userId))))!;
}

function ownRow(row: Row, userId: number): boolean {
  return (row.actorType === "user" && row.actorId === String(userId)) || row.onBehalfOf === userId || (row.event.startsWith("user.") && row.subject === String(userId));
}

function activityView(row: Row, showAddress: boolean): ActivityView {
  return {
    id: row.id,
    event: row.event,
    actor: { type: row.actorType, ...(row.actorId ? { id: row.actorId } : {}), ...(row.actorName ? { name: row.actorName } : {}) },
    ...(row.serverId ? { serverId: row.serverId } : {}),
    ...(row.subject ? { subject: row.subject } : {}),
    ...(showAddress && row.ip ? { ip: row.ip } : {}),
    properties: JSON.parse(row.properties) as Record<string, unknown>,
    at: new Date(row.at).toISOString(),
  };
}
