// Live values for lists of servers: whether each runs, and its CPU and
// memory, asked of its node over HTTP. Bounded so a big list costs the nodes little: callers pass
// at most one page (MAX_PAGE_SIZE servers) or STATUS_SCAN_MAX for the status filter; statuses and
// players come in one call per node (listStatuses, from the node's memory); stats, which read
// /proc or the Docker Engine, are asked per server and only when wanted; at most
// LIVE_CONCURRENCY node calls are out at once, each given LIVE_TIMEOUT_MS; a node that does not
// answer makes its servers "unknown" rather than failing the list.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { MAX_IDS_PER_CALL, type ListStatus, type StatData } from "../../../core/live";
import { READ_PLAYERS } from "../../../core/players/players-access";
import { playerCounts, type PlayerCounts } from "../../../core/players/players-state";
import { callOperation } from "../../daemon-client";
import { nodeWriteCount } from "../../node-writes";
import { getNodeRow, type NodeRow } from "../nodes";
import type { SessionUser } from "../sessions";
import { allows, serverAccesses } from "./permissions";

/** "starting": running but not ready yet (its ready marker not seen). */
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

/** A node's answer to a list's question (within LIVE_TIMEOUT_MS), or null when it gave none. */
async function answerOf<T>(node: NodeRow, name: "listStatuses" | "stats" | "playerCounts", params: Record<string, string>, query?: string): Promise<T | null> {
  try {
    const response = await callOperation(node, name, params, { query, timeoutMs: LIVE_TIMEOUT_MS });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

/**
 * How long a node's answer about its servers' statuses serves other lists, while this panel has
 * sent that node nothing that may change them (server/node-writes): a crowd of list pages costs
 * the node one call per this time, a power action through this panel shows on the next list, and
 * a change the node makes itself (a crash, a start elsewhere) shows within it.
 */
export const STATUS_FRESH_MS = 250;
/** More distinct questions kept than this (status filters over many pages): all are dropped. */
const MAX_KEPT_QUESTIONS = 1_000;

type StatusesAnswer = { servers?: Record<string, ListStatus> } | null;
const statusesKept = new Map<string, { at: number; writes: number; answer: Promise<StatusesAnswer> }>();

function askStatuses(node: NodeRow, query: string): Promise<StatusesAnswer> {
  // The node's address and secret are part of the question: a changed node row is another node.
  const key = JSON.stringify([node.id, node.privateHost, node.privatePort, node.secret, query]);
  const writes = nodeWriteCount(node.id);
  const now = performance.now();
  const kept = statusesKept.get(key);
  if (kept && kept.writes === writes && now - kept.at < STATUS_FRESH_MS) return kept.answer;
  if (statusesKept.size >= MAX_KEPT_QUESTIONS) statusesKept.clear();
  const answer = answerOf<{ servers?: Record<string, ListStatus> }>(node, "listStatuses", {}, query);
  const entry = { at: now, writes, answer };
  statusesKept.set(key, entry);
  // No answer is kept past its own call: the next list asks again.
  void answer.then((value) => value === null && statusesKept.get(key) === entry && statusesKept.delete(key));
  return answer;
}

/** The node's status and players of `ids`, MAX_IDS_PER_CALL a call; null when the node did not answer. */
async function listStatuses(node: NodeRow, ids: string[]): Promise<Record<string, ListStatus> | null> {
  const answers: Record<string, ListStatus> = {};
  for (let from = 0; from < ids.length; from += MAX_IDS_PER_CALL) {
    const answer = await askStatuses(node, `?ids=${ids.slice(from, from + MAX_IDS_PER_CALL).join(",")}`);
    if (!answer) return null;
    Object.assign(answers, answer.servers);
  }
  return answers;
}

function fromListStatus(answer: ListStatus | undefined, withPlayers: boolean): LiveValues {
  const status = answer?.status;
  if (!status || typeof status.running !== "boolean") return { status: "unknown" };
  const values: LiveValues = { status: status.starting ? "starting" : status.running ? "online" : "offline", installing: Boolean(status.installing) };
  // A server whose template declares no query has no players figure at all (not "no answer").
  const players = answer.players;
  if (withPlayers && status.running && players && !("error" in players && players.reason === "notDeclared")) values.players = playerCounts(players);
  return values;
}

/** CPU and memory (and the memory limit) of a running server, when its node answers. */
async function withStat(node: NodeRow, id: string, values: LiveValues): Promise<void> {
  const stat = await answerOf<StatData>(node, "stats", { id });
  if (stat && typeof stat.cpu === "number" && typeof stat.memory === "number") {
    values.cpu = stat.cpu;
    values.memory = stat.memory;
    const limit = stat.limits?.memoryMiB;
    if (typeof limit === "number" && limit > 0) values.memoryLimitMiB = limit;
  }
}

/** A question to a node for a list (within LIVE_TIMEOUT_MS): its answer, or null when it gave none. */
export async function askNode<T>(db: Db, nodeId: number, name: "playerCounts", query: string): Promise<T | null> {
  let node: NodeRow;
  try {
    node = await getNodeRow(db, nodeId);
  } catch {
    return null;
  }
  return answerOf<T>(node, name, {}, query);
}

/** At most `limit` of `tasks` running at once. */
async function bounded(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * The live values of `servers`, by id: status and players in one call per node, then CPU and
 * memory of the running ones whose stats `withStats(id)` says the caller may see.
 */
export async function liveValues(db: Db, servers: readonly { id: string; nodeId: number }[], withStats: (id: string) => boolean, withPlayers: (id: string) => boolean = () => false): Promise<Record<string, LiveValues>> {
  const result: Record<string, LiveValues> = {};
  const statsWanted: Array<() => Promise<void>> = [];
  const byNode = [...Map.groupBy(servers, (server) => server.nodeId)];
  await bounded(
    byNode.map(([nodeId, onNode]) => async () => {
      let node: NodeRow | null = null;
      try {
        node = await getNodeRow(db, nodeId);
      } catch {
        // A node row gone: its servers are unknown.
      }
      const answers = node ? await listStatuses(node, onNode.map((server) => server.id)) : null;
      for (const server of onNode) {
        const values = answers ? fromListStatus(answers[server.id], withPlayers(server.id)) : ({ status: "unknown" } as LiveValues);
        result[server.id] = values;
        if (node && values.status !== "unknown" && values.status !== "offline" && withStats(server.id)) statsWanted.push(() => withStat(node, server.id, values));
      }
    }),
    LIVE_CONCURRENCY,
  );
  await bounded(statsWanted, LIVE_CONCURRENCY);
  return result;
}

/**
 * The live values of those of `ids` that are ready servers `user` may see (others are left out,
 * so a list that outlived an access change keeps working); CPU and memory only where they may
 * see stats.
 */
export async function visibleLiveValues(db: Db, user: SessionUser, ids: readonly string[]): Promise<Record<string, LiveValues>> {
  const rows = ids.length === 0 ? [] : await db.select({ id: schema.servers.id, nodeId: schema.servers.nodeId }).from(schema.servers).where(and(inArray(schema.servers.id, [...ids]), eq(schema.servers.state, "ready"))).all();
  const access = await serverAccesses(db, user, rows.map((row) => row.id));
  const visible = rows.filter((row) => allows(access.get(row.id)!, "view"));
  return liveValues(db, visible, (id) => allows(access.get(id)!, "viewServerStats"), (id) => READ_PLAYERS.some((needs) => allows(access.get(id)!, needs)));
}
