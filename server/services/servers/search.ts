// The server list screen's query: search by name or id, filter by node,
// sort by name, node or owner, one page at a time, in one SQL query and one count. The owner is
// the first user given access to the server (the one it was created for: lifecycle.ts writes that
// row first); the panel keeps no separate owner column, and if that user is removed the next
// oldest access holder is shown.
import { and, asc, count, desc, eq, like, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db";
import { prepared } from "../../../db/prepared";
import { schema } from "../../../db";
import type { SessionUser } from "../sessions";
import { isAdminUser } from "./permissions";
import { entryColumns, toEntry, type ServerEntry } from "./index";
import { KeptLookups } from "../../../db/kept";

export const SERVER_SORTS = ["name", "node", "owner"] as const;
export type ServerSort = (typeof SERVER_SORTS)[number];

export interface ServerQuery {
  /** part of the name or the id; at most SEARCH_MAX characters are used */
  q: string;
  nodeId: number | null;
  sort: ServerSort;
  descending: boolean;
}

export const SEARCH_MAX = 64;

export interface ListedServer extends ServerEntry {
  /** the owner's username, or null when nobody holds access any more */
  owner: string | null;
}

const owner = sql<string | null>`(select u.username from server_users su join users u on u.id = su.user_id where su.server_id = ${schema.servers.id} order by su.added_at, su.user_id limit 1)`;

const columns = { ...entryColumns, owner };

/** `%` and `_` typed by the user are letters, not wildcards. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Which parts a query has: each combination is one statement, prepared once per database. */
interface Shape {
  admin: boolean;
  bound: boolean;
  node: boolean;
  search: boolean;
}

function conditions(shape: Shape): SQL | undefined {
  return and(
    eq(schema.servers.state, "ready"),
    // A server-bound client sees its one server only.
    shape.bound ? eq(schema.servers.id, sql.placeholder("serverId")) : undefined,
    shape.admin ? undefined : sql`exists (select 1 from server_users mine where mine.server_id = ${schema.servers.id} and mine.user_id = ${sql.placeholder("userId")})`,
    shape.node ? eq(schema.servers.nodeId, sql.placeholder("nodeId")) : undefined,
    shape.search ? or(sql`${schema.servers.name} like ${sql.placeholder("name")} escape '\\'`, like(schema.servers.id, sql.placeholder("id"))) : undefined,
  );
}

/** The shape of `query` for `user`, and the values its placeholders take. */
async function shaped(db: Db, user: SessionUser, query: ServerQuery): Promise<{ shape: Shape; values: Record<string, string | number> }> {
  const q = query.q.trim().slice(0, SEARCH_MAX);
  const shape = { admin: await isAdminUser(db, user), bound: Boolean(user.serverId), node: query.nodeId !== null, search: q !== "" };
  return { shape, values: { userId: user.id, serverId: user.serverId ?? "", nodeId: query.nodeId ?? 0, name: contains(q), id: contains(q.toLowerCase()) } };
}

/**
 * One statement maker per shape, sort and direction (kept, so `prepared` knows it again): the
 * list page asks the same few queries on every request, and drizzle building and SQLite compiling
 * them was most of its database time.
 */
const makers = new Map<string, (db: Db) => ReturnType<typeof pageStatements>>();

function pageStatements(db: Db, shape: Shape, sort: ServerSort, descending: boolean) {
  const where = conditions(shape);
  const direction = descending ? desc : asc;
  const key = { name: sql`lower(${schema.servers.name})`, node: sql`lower(${schema.nodes.name})`, owner: sql`lower(${owner})` }[sort];
  const rows = db
    .select(columns)
    .from(schema.servers)
    .innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId))
    .where(where)
    .orderBy(direction(key), asc(sql`lower(${schema.servers.name})`))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare();
  // Every server has its node (a foreign key): the count needs no join.
  const total = db.select({ n: count() }).from(schema.servers).where(where).prepare();
  const nodes = db.selectDistinct({ id: schema.nodes.id, name: schema.nodes.name }).from(schema.servers).innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId)).where(where).orderBy(asc(schema.nodes.name)).prepare();
  return { rows, total, nodes };
}

function statementsFor(db: Db, shape: Shape, sort: ServerSort = "name", descending = false) {
  const name = `${shape.admin}|${shape.bound}|${shape.node}|${shape.search}|${sort}|${descending}`;
  let make = makers.get(name);
  if (!make) makers.set(name, (make = (d: Db) => pageStatements(d, shape, sort, descending)));
  return prepared(db, make);
}

/**
 * The list page's reads, kept while nothing is written (db/kept): the page polls, and every
 * administrator asking the same page gets the same rows. Keyed by everything the statement uses.
 * On PostgreSQL too, until another panel's write is announced (as the JSON list's pages).
 */
const keptReads = new KeptLookups<string, unknown>(1_000, { announced: true });

function readKept<T>(db: Db, key: unknown[], read: () => Promise<T>): Promise<T> {
  return keptReads.get(db, JSON.stringify(key), read) as Promise<T>;
}

/** What a statement's placeholders take, without the caller's id when the statement does not use it (every administrator's is the same). */
function keyOf(shape: Shape, values: Record<string, string | number>): unknown[] {
  const { userId, ...rest } = values;
  return [shape, shape.admin ? rest : values];
}

/** One page of the servers the caller may see that match `query`, and how many match in all. */
export async function searchServers(db: Db, user: SessionUser, query: ServerQuery, page: number, limit: number, requestHost: string): Promise<{ servers: ListedServer[]; total: number }> {
  const { shape, values } = await shaped(db, user, query);
  const statements = statementsFor(db, shape, query.sort, query.descending);
  const offset = (page - 1) * limit;
  const { rows, total } = await readKept(db, ["page", ...keyOf(shape, values), query.sort, query.descending, limit, offset], async () => ({
    rows: await statements.rows.all({ ...values, limit, offset }),
    total: (await statements.total.get(values))?.n ?? 0,
  }));
  return { total, servers: rows.map(({ owner, ...row }) => ({ ...toEntry(row, requestHost), owner })) };
}

/** The nodes holding servers the caller may see, for the list's node filter (names only; no nodes.view needed). */
export async function nodesOfVisibleServers(db: Db, user: SessionUser): Promise<{ id: number; name: string }[]> {
  const { shape, values } = await shaped(db, user, { q: "", nodeId: null, sort: "name", descending: false });
  return await readKept(db, ["nodes", ...keyOf(shape, values)], () => statementsFor(db, shape).nodes.all(values));
}
