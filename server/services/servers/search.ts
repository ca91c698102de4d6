// The server list screen's query (issue 19, capability 12): search by name or id, filter by node,
// sort by name, node or owner, one page at a time, in one SQL query and one count. The owner is
// the first user given access to the server (the one it was created for: lifecycle.ts writes that
// row first); the panel keeps no separate owner column, and if that user is removed the next
// oldest access holder is shown.
import { and, asc, count, desc, eq, like, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { DEFAULT_BIND_HOST } from "../../../core/definition";
import type { SessionUser } from "../sessions";
import { isAdminUser } from "./permissions";
import { entryColumns, serverAddress, type ServerEntry } from "./index";

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

const owner = sql<string | null>`(select u.username from server_users su join users u on u.id = su.user_id where su.server_id = ${schema.servers.id} order by su.rowid limit 1)`;

const columns = { ...entryColumns, owner };

/** `%` and `_` typed by the user are letters, not wildcards. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function conditions(db: Db, user: SessionUser, query: ServerQuery): SQL | undefined {
  const q = query.q.trim().slice(0, SEARCH_MAX);
  const admin = isAdminUser(db, user);
  return and(
    eq(schema.servers.state, "ready"),
    // A server-bound client sees its one server only.
    user.serverId ? eq(schema.servers.id, user.serverId) : undefined,
    admin ? undefined : sql`exists (select 1 from server_users mine where mine.server_id = ${schema.servers.id} and mine.user_id = ${user.id})`,
    query.nodeId === null ? undefined : eq(schema.servers.nodeId, query.nodeId),
    q === "" ? undefined : or(sql`${schema.servers.name} like ${contains(q)} escape '\\'`, like(schema.servers.id, contains(q.toLowerCase()))),
  );
}

/** One page of the servers the caller may see that match `query`, and how many match in all. */
export function searchServers(db: Db, user: SessionUser, query: ServerQuery, page: number, limit: number, requestHost: string): { servers: ListedServer[]; total: number } {
  const where = conditions(db, user, query);
  const direction = query.descending ? desc : asc;
  const key = { name: sql`lower(${schema.servers.name})`, node: sql`lower(${schema.nodes.name})`, owner: sql`lower(${owner})` }[query.sort];
  const rows = db
    .select(columns)
    .from(schema.servers)
    .innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId))
    .where(where)
    .orderBy(direction(key), asc(sql`lower(${schema.servers.name})`))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  const total = db.select({ n: count() }).from(schema.servers).innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId)).where(where).get()?.n ?? 0;
  return {
    total,
    servers: rows.map(({ publicHost, publicPort, ...row }) => ({
      ...row,
      address: serverAddress(row.ip, row.port, publicHost, requestHost),
      node: { id: row.nodeId, name: row.nodeName, publicHost: publicHost === DEFAULT_BIND_HOST ? requestHost : publicHost, publicPort },
    })),
  };
}

/** The nodes holding servers the caller may see, for the list's node filter (names only; no nodes.view needed). */
export function nodesOfVisibleServers(db: Db, user: SessionUser): { id: number; name: string }[] {
  const where = conditions(db, user, { q: "", nodeId: null, sort: "name", descending: false });
  return db
    .selectDistinct({ id: schema.nodes.id, name: schema.nodes.name })
    .from(schema.servers)
    .innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId))
    .where(where)
    .orderBy(asc(schema.nodes.name))
    .all();
}
