// What each node last said in its metrics answer (GET /daemon/metrics), kept in memory per
// database (panels sharing a process, as tests do, never see each other's nodes) by the
// collector and read by /metrics. A node is another machine: every field is checked before
// anything is kept, within bounds no real machine reaches, so a node answering garbage, huge
// numbers or strings where numbers belong changes nothing /metrics writes but that node's own
// figures. Ids and names in the text come from the panel's database, never from the answer; the
// one string of the node's that is shown (its version) must look like a version.
import type { Db } from "../../db";
import { isPlayerCount } from "../../core/players/players-state";
import { SERVER_METRIC_STATES, type MachineFigures, type NodeMetricsAnswer, type ServerFigures, type ServerMetricState } from "../../core/metrics";
import { SERVER_ID_PATTERN } from "../../core/contract";

/** A version as package.json writes it ("0.1.0", "1.2.0-rc.1+abc"). */
const VERSION = /^[0-9A-Za-z.+-]{1,32}$/;
/** The panel's server ids (and PufferPanel's), which are the answer's keys. */
/** More servers than one node could hold: the rest of such an answer is not read. */
export const MAX_SERVERS_PER_NODE = 10_000;
/** Bytes (memory, disk) up to 2^53: beyond any machine, and still exact as a number. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;
/** Percent of one core: a thousand cores busy. */
const MAX_CPU_PERCENT = 100_000;
const MAX_LOAD = 1_000_000;
const MAX_CPUS = 100_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const count = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= MAX_COUNT;
const within = (v: unknown, max: number): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= max;
const countOrNull = (v: unknown): v is number | null => v === null || count(v);

function readMachine(v: unknown): MachineFigures | null {
  if (!isRecord(v)) return null;
  const { load, memoryTotalBytes, memoryAvailableBytes, diskTotalBytes, diskFreeBytes, cpus } = v;
  if (!Array.isArray(load) || load.length !== 3 || !load.every((x) => within(x, MAX_LOAD))) return null;
  if (!count(memoryTotalBytes) || !count(memoryAvailableBytes) || !countOrNull(diskTotalBytes) || !countOrNull(diskFreeBytes)) return null;
  return { load: [load[0]!, load[1]!, load[2]!], memoryTotalBytes, memoryAvailableBytes, diskTotalBytes, diskFreeBytes, cpus: Number.isSafeInteger(cpus) && (cpus as number) >= 1 && (cpus as number) <= MAX_CPUS ? (cpus as number) : null };
}

function readServer(v: unknown): ServerFigures | null {
  if (!isRecord(v)) return null;
  const { state, cpuPercent, memoryBytes, diskBytes, uptimeSeconds, restarts, crashes, playersOnline } = v;
  if (typeof state !== "string" || !(SERVER_METRIC_STATES as readonly string[]).includes(state)) return null;
  if (!(cpuPercent === null || within(cpuPercent, MAX_CPU_PERCENT)) || !countOrNull(memoryBytes) || !countOrNull(diskBytes) || !countOrNull(uptimeSeconds) || !count(restarts) || !count(crashes)) return null;
  if (playersOnline !== null && !isPlayerCount(playersOnline)) return null;
  return { state: state as ServerMetricState, cpuPercent, memoryBytes, diskBytes, uptimeSeconds, restarts, crashes, playersOnline };
}

/**
 * A node's metrics answer as the panel may use it, or null when its version or machine cannot be
 * read (the node then counts as not answering). A server entry that cannot be read is left out
 * alone; so are entries past MAX_SERVERS_PER_NODE.
 */
export function readNodeMetrics(answer: unknown): NodeMetricsAnswer | null {
  if (!isRecord(answer)) return null;
  const { version, machine, servers } = answer;
  if (typeof version !== "string" || !VERSION.test(version)) return null;
  const readMachineFigures = readMachine(machine);
  if (!readMachineFigures || !isRecord(servers)) return null;
  const kept: Record<string, ServerFigures> = Object.create(null);
  let seen = 0;
  for (const id in servers) {
    if (++seen > MAX_SERVERS_PER_NODE) break;
    if (!Object.hasOwn(servers, id) || !SERVER_ID_PATTERN.test(id)) continue;
    const figures = readServer(servers[id]);
    if (figures) kept[id] = figures;
  }
  return { version, machine: readMachineFigures, servers: kept };
}

export interface NodeRecord {
  /** The last readable answer; null after an attempt that failed (stale figures are not shown as current). */
  figures: NodeMetricsAnswer | null;
  /** When that answer came (ms). */
  at: number;
  /** When the node last gave a readable answer (ms); null when it never did since the panel started. */
  lastContact: number | null;
}

const kept = new WeakMap<Db, Map<number, NodeRecord>>();

function nodesOf(db: Db): Map<number, NodeRecord> {
  let nodes = kept.get(db);
  if (!nodes) kept.set(db, (nodes = new Map()));
  return nodes;
}

/** Records one collection's outcome for a node: its readable answer, or null for none. */
export function rememberNodeMetrics(db: Db, nodeId: number, figures: NodeMetricsAnswer | null, now = Date.now()): void {
  const nodes = nodesOf(db);
  const last = nodes.get(nodeId);
  nodes.set(nodeId, { figures, at: now, lastContact: figures ? now : (last?.lastContact ?? null) });
}

export function recallNodeMetrics(db: Db, nodeId: number): NodeRecord | null {
  return kept.get(db)?.get(nodeId) ?? null;
}

/** Forgets every node not in `ids` (deleted since), or every node when `ids` is empty. */
export function forgetNodesExcept(db: Db, ids: ReadonlySet<number>): void {
  const nodes = kept.get(db);
  if (!nodes) return;
  for (const id of nodes.keys()) if (!ids.has(id)) nodes.delete(id);
}
