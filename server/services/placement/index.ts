// Placement by what the nodes measure now: a server created without a node goes to the node with
// the most free memory among those that fit it. A node fits when it is not draining, carries every
// constraint tag, answers, and has room for what the server asks: memory (what it has available,
// less what servers placed there but not running have asked for, so a row of creations spreads),
// CPU (headroom over about the last ten minutes: the mean of the kernel's 5- and 15-minute load
// averages over its cores; no sampler runs on the node), disk, and free allocations where the node
// has a pool. Every node's figures and shortfalls come back as the reasons for the choice; when
// none fits, ErrNoNodeFits names the resource short.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { NodeMetricsAnswer } from "../../../core/metrics";
import { callOperation } from "../../daemon-client";
import { readNodeMetrics } from "../../metrics/node-figures";
import type { NodeRow } from "../nodes";
import { freeAllocations, hasPool } from "../allocations/pool";

export const SHORTFALLS = ["draining", "tags", "unreachable", "memory", "cpu", "disk", "allocations"] as const;
export type Shortfall = (typeof SHORTFALLS)[number];

export interface Need {
  memoryMiB?: number;
  /** CPU as a share of cores: 100 is one core. */
  cpuPercent?: number;
  diskMiB?: number;
  ports: number;
}

export interface NodeFit {
  node: string;
  nodeId: number;
  fits: boolean;
  short: Shortfall[];
  freeMemoryBytes: number | null;
  cpuPercent: number | null;
  freeDiskBytes: number | null;
  /** null: the node has no pool (ports are the variables'). */
  freePorts: number | null;
}

const MIB = 1024 * 1024;
const ASK_TIMEOUT_MS = 3000;

/** The node placement picks for `need` with these tags (never `exclude`, the node a server leaves), and every node's figures. */
export async function chooseNode(db: Db, need: Need, constraints: readonly string[] = [], exclude?: number): Promise<{ node: NodeRow; reasons: NodeFit[] }> {
  const nodes = (await db.select().from(schema.nodes).orderBy(schema.nodes.id).all()).filter((node) => node.id !== exclude);
  const reasons = await Promise.all(nodes.map((node) => fitOf(db, node, need, constraints)));
  const best = reasons.filter((r) => r.fits).sort((a, b) => (b.freeMemoryBytes ?? 0) - (a.freeMemoryBytes ?? 0))[0];
  if (!best) throw new KilnError("ErrNoNodeFits", { short: mainShortfall(reasons), nodes: nodes.length });
  return { node: nodes.find((n) => n.id === best.nodeId)!, reasons };
}

async function fitOf(db: Db, node: NodeRow, need: Need, constraints: readonly string[]): Promise<NodeFit> {
  const fit: NodeFit = { node: node.name, nodeId: node.id, fits: false, short: [], freeMemoryBytes: null, cpuPercent: null, freeDiskBytes: null, freePorts: await hasPool(db, node.id) ? (await freeAllocations(db, node.id)).length : null };
  if (node.draining) fit.short.push("draining");
  if (!constraints.every((tag) => node.tags.includes(tag))) fit.short.push("tags");
  if (fit.short.length > 0) return fit;
  const answer = await askMetrics(node);
  if (!answer) return { ...fit, short: ["unreachable"] };
  const { machine } = answer;
  fit.freeMemoryBytes = machine.memoryAvailableBytes - await reservedMiB(db, node.id, answer) * MIB;
  fit.cpuPercent = machine.cpus ? Math.min(100, Math.round((((machine.load[1] + machine.load[2]) / 2) / machine.cpus) * 100)) : null;
  fit.freeDiskBytes = machine.diskFreeBytes;
  if (need.memoryMiB && fit.freeMemoryBytes < need.memoryMiB * MIB) fit.short.push("memory");
  if (fit.freeMemoryBytes <= 0) fit.short.push("memory");
  if (need.cpuPercent && machine.cpus && fit.cpuPercent !== null && ((100 - fit.cpuPercent) / 100) * machine.cpus * 100 < need.cpuPercent) fit.short.push("cpu");
  if (need.diskMiB && fit.freeDiskBytes !== null && fit.freeDiskBytes < need.diskMiB * MIB) fit.short.push("disk");
  if (fit.freePorts !== null && fit.freePorts < need.ports) fit.short.push("allocations");
  fit.short = [...new Set(fit.short)];
  fit.fits = fit.short.length === 0;
  return fit;
}

/** Memory asked for by the node's servers that are not running (those running use theirs already). */
async function reservedMiB(db: Db, nodeId: number, answer: NodeMetricsAnswer): Promise<number> {
  const rows = await db.select({ id: schema.servers.id, memoryMiB: schema.servers.memoryMiB }).from(schema.servers).where(eq(schema.servers.nodeId, nodeId)).all();
  return rows.reduce((sum, row) => sum + (row.memoryMiB && answer.servers[row.id]?.state !== "running" ? row.memoryMiB : 0), 0);
}

/** The node's metrics answer now, or null when it does not give a readable one in time. */
export async function askMetrics(node: NodeRow): Promise<NodeMetricsAnswer | null> {
  try {
    const response = await callOperation(node, "nodeMetrics", {}, { timeoutMs: ASK_TIMEOUT_MS });
    if (!response.ok) return null;
    return readNodeMetrics(await response.json());
  } catch {
    return null;
  }
}

/** What keeps the server off every node: among the nodes its tags and draining allow, the resource all of them lack, else the first one's. */
function mainShortfall(reasons: NodeFit[]): Shortfall | "nodes" {
  if (reasons.length === 0) return "nodes";
  const considered = reasons.filter((r) => !r.short.includes("draining") && !r.short.includes("tags"));
  // A node that carries the tags but drains says more than one that lacks them.
  if (considered.length === 0) return reasons.some((r) => !r.short.includes("tags")) ? "draining" : "tags";
  for (const short of ["memory", "cpu", "disk", "allocations", "unreachable"] as const) if (considered.every((r) => r.short.includes(short))) return short;
  return considered[0]!.short[0]!;
}
