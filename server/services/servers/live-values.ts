// Live values for lists of servers (issue 19, capability 12): whether each runs, and its CPU and
// memory, asked of its node over HTTP. Bounded so a big list costs the nodes little: callers pass
// at most one page (MAX_PAGE_SIZE servers) or STATUS_SCAN_MAX for the status filter; at most
// LIVE_CONCURRENCY node calls are out at once, each given LIVE_TIMEOUT_MS; a node that does not
// answer makes its servers "unknown" rather than failing the list. Status is the node's in-memory
// state (cheap); stats, which read /proc or the Docker Engine, are asked only when wanted.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import type { StatData, StatusData } from "../../../core/live";
import { READ_PLAYERS } from "../../../core/players/players-access";
import { playerCounts, type PlayerCounts, type PlayersState } from "../../../core/players/players-state";
import { callOperation } from "../../daemon-client";
import { getNodeRow, type NodeRow } from "../nodes";
import type { SessionUser } from "../sessions";
import { allows, serverAccess, type ServerAccess } from "./permissions";

/** "starting": running but not ready yet (its ready marker not seen; issue 18). */
export type LiveStatus = "online" | "starting" | "offline" | "unknown";

export interface LiveValues {
  status: LiveStatus;
  installing?: boolean;
  /** percent of one core, when stats were wanted and the server runs */
  cpu?: number;
  /** resident bytes */
  memory?: number;
  /** the memory limit in MiB, when the server has one */
  memoryLimitMiB?: number;
  /** Players online and the most allowed, where the caller may read players, the server runs and its template declares a query; null when the query has no answer. */
  players?: PlayerCounts;
}

export const LIVE_CONCURRENCY = 8;
export const LIVE_TIMEOUT_MS = 2000;
/** The status filter looks at no more servers than this (the page says so when there were more). */
export const STATUS_SCAN_MAX = 200;

/** A node that did not answer one call in this pass: its other servers are not asked (each would wait the timeout). */
class NodeDown extends Error {}

async function ask<T>(node: NodeRow, name: "status" | "stats" | "players", id: string): Promise<T | null> {
  let response: Response;
  try {
    response = await callOperation(node, name, { id }, { timeoutMs: LIVE_TIMEOUT_MS });
  } catch {
    throw new NodeDown();
  }
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  return (await response.json().catch(() => null)) as T | null;
}

async function valuesOf(node: NodeRow, id: string, withStats: boolean, withPlayers: boolean): Promise<LiveValues> {
  const status = await ask<StatusData>(node, "status", id);
  if (!status || typeof status.running !== "boolean") return { status: "unknown" };
  const values: LiveValues = { status: status.starting ? "starting" : status.running ? "online" : "offline", installing: Boolean(status.installing) };
  // The node keeps its last query's result in memory: as cheap to ask as the status. A server
  // whose template declares no query has no players figure at all (not "no answer").
  if (withPlayers && status.running) {
    const players = (await ask<{ players: PlayersState | null }>(node, "players", id))?.players;
    if (players && !("error" in players && players.reason === "notDeclared")) values.players = playerCounts(players);
  }
  if (!withStats || !status.running) return values;
  const stat = await ask<StatData>(node, "stats", id);
  if (stat && typeof stat.cpu === "number" && typeof stat.memory === "number") {
    values.cpu = stat.cpu;
    values.memory = stat.memory;
    const limit = stat.limits?.memoryMiB;
    if (typeof limit === "number" && limit > 0) values.memoryLimitMiB = limit;
  }
  return values;
}

/** A question to a node for a list (within LIVE_TIMEOUT_MS): its answer, or null when it gave none. */
export async function askNode<T>(db: Db, nodeId: number, name: "playerCounts", query: string): Promise<T | null> {
  try {
    const response = await callOperation(getNodeRow(db, nodeId), name, {}, { query, timeoutMs: LIVE_TIMEOUT_MS });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

/** The live values of `servers`, by id; `withStats(id)` says whose CPU and memory the caller may see. */
export async function liveValues(db: Db, servers: readonly { id: string; nodeId: number }[], withStats: (id: string) => boolean, withPlayers: (id: string) => boolean = () => false): Promise<Record<string, LiveValues>> {
  const nodes = new Map<number, NodeRow | null>();
  const nodeOf = (id: number) => {
    if (!nodes.has(id)) {
      try {
        nodes.set(id, getNodeRow(db, id));
      } catch {
        nodes.set(id, null);
      }
    }
    return nodes.get(id)!;
  };
  const result: Record<string, LiveValues> = {};
  const down = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < servers.length) {
      const server = servers[next++]!;
      const node = down.has(server.nodeId) ? null : nodeOf(server.nodeId);
      try {
        result[server.id] = node ? await valuesOf(node, server.id, withStats(server.id), withPlayers(server.id)) : { status: "unknown" };
      } catch (error) {
        if (!(error instanceof NodeDown)) throw error;
        down.add(server.nodeId);
        result[server.id] = { status: "unknown" };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIVE_CONCURRENCY, servers.length) }, worker));
  return result;
}

/**
 * The live values of those of `ids` that are ready servers `user` may see (others are left out,
 * so a list that outlived an access change keeps working); CPU and memory only where they may
 * see stats.
 */
export async function visibleLiveValues(db: Db, user: SessionUser, ids: readonly string[]): Promise<Record<string, LiveValues>> {
  const rows = ids.length === 0 ? [] : db.select({ id: schema.servers.id, nodeId: schema.servers.nodeId }).from(schema.servers).where(and(inArray(schema.servers.id, [...ids]), eq(schema.servers.state, "ready"))).all();
  const access = new Map<string, ServerAccess>();
  for (const row of rows) {
    const a = serverAccess(db, user, row.id);
    if (allows(a, "view")) access.set(row.id, a);
  }
  const visible = rows.filter((row) => access.has(row.id));
  return liveValues(db, visible, (id) => allows(access.get(id)!, "viewServerStats"), (id) => READ_PLAYERS.some((needs) => allows(access.get(id)!, needs)));
}
