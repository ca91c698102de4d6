// Rebalancing proposals for a node that has stayed loaded: above the memory or the CPU threshold in
// every sample of the whole period (./load-history, ./thresholds). Kiln proposes moving its servers
// that use the most memory, one after another, each to the node placement would choose for it,
// until what is left would be under the threshold; an administrator accepts a proposal (a
// transfer) or not. Nothing is ever moved on its own: a running game is its players'.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { getNodeRow } from "../nodes";
import { heldBy } from "../allocations/binding";
import { chooseNode } from "./index";
import { samplesOf } from "./load-history";
import type { RebalanceThresholds } from "./thresholds";

export interface RebalanceProposal {
  serverId: string;
  name: string;
  /** its memory use now, bytes */
  memoryBytes: number;
  to: string;
  toNodeId: number;
}

export interface RebalanceView {
  /** The node stayed above a threshold for the whole period. */
  loaded: boolean;
  /** Its figures in the last sample (null before the first). */
  memoryPercent: number | null;
  cpuPercent: number | null;
  /** Minutes of samples seen, and how many the rule needs. */
  seenMinutes: number;
  thresholds: RebalanceThresholds;
  proposals: RebalanceProposal[];
}

const MIB = 1024 * 1024;

export async function rebalanceProposals(db: Db, nodeId: number, thresholds: RebalanceThresholds, now = Date.now()): Promise<RebalanceView> {
  await getNodeRow(db, nodeId);
  const samples = samplesOf(db, nodeId);
  const last = samples.at(-1);
  const since = now - thresholds.minutes * 60_000;
  const seenMinutes = samples.length === 0 ? 0 : Math.floor((now - samples[0]!.at) / 60_000);
  const over = (s: (typeof samples)[number]) => s.memoryPercent >= thresholds.memoryPercent || (s.cpuPercent !== null && s.cpuPercent >= thresholds.cpuPercent);
  // The period is covered from the last sample at or before its start: every sample from there on must be over.
  const start = samples.findLastIndex((s) => s.at <= since);
  const loaded = start >= 0 && samples.slice(start).every(over);
  const view: RebalanceView = { loaded, memoryPercent: last?.memoryPercent ?? null, cpuPercent: last?.cpuPercent ?? null, seenMinutes, thresholds, proposals: [] };
  if (!loaded || !last) return view;
  const servers = await db.select({ id: schema.servers.id, name: schema.servers.name }).from(schema.servers).where(and(eq(schema.servers.nodeId, nodeId), eq(schema.servers.state, "ready"))).all();
  const biggest = servers.map((s) => ({ ...s, memoryBytes: last.serverMemory[s.id] ?? 0 })).sort((a, b) => b.memoryBytes - a.memoryBytes);
  // What is left after each proposed move, as the last sample saw it; a node loaded by CPU alone gets one proposal (the figures do not say which server burns it).
  let memoryPercent = last.memoryPercent;
  const cpuOver = last.cpuPercent !== null && last.cpuPercent >= thresholds.cpuPercent;
  for (const server of biggest) {
    if (memoryPercent < thresholds.memoryPercent && (!cpuOver || view.proposals.length > 0)) break;
    const target = await chooseNode(db, { memoryMiB: Math.ceil(server.memoryBytes / MIB) || undefined, ports: Math.max(1, (await heldBy(db, server.id)).length) }, [], nodeId).catch(() => null);
    if (!target) continue;
    view.proposals.push({ serverId: server.id, name: server.name, memoryBytes: server.memoryBytes, to: target.node.name, toNodeId: target.node.id });
    memoryPercent -= last.memoryTotalBytes > 0 ? (server.memoryBytes / last.memoryTotalBytes) * 100 : 0;
  }
  return view;
}
