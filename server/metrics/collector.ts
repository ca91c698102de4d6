// Asks every node for its metrics (the contract's nodeMetrics) every interval, in the background,
// and keeps each answer (./node-figures): a scrape of /metrics reads memory and the database and
// never waits for a node. Started beside the node heartbeat (server/cli/panel.ts). While no
// metrics token is set, metrics are off and nothing is asked (nor kept).
import type { Db } from "../../db";
import { schema } from "../../db";
import { callOperation } from "../daemon-client";
import { forgetNodesExcept, readNodeMetrics, rememberNodeMetrics } from "./node-figures";
import { metricsEnabled } from "./token";

export const METRICS_INTERVAL_MS = 15_000;
/** The most a node's answer may take: a node asked every 15 s has no more to say than this. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const NODE_TIMEOUT_MS = 10_000;


/** One node's answer, read and checked; null when it did not answer, refused, or said what cannot be read. */
async function askNode(node: typeof schema.nodes.$inferSelect, timeoutMs: number): Promise<ReturnType<typeof readNodeMetrics>> {
  try {
    // The whole answer, body included, within timeoutMs: a node that trickles its answer keeps
    // neither this round nor the other nodes' figures waiting (the round waits for every node).
    const response = await callOperation(node, "nodeMetrics", {}, { timeoutMs, signal: AbortSignal.timeout(timeoutMs), bounds: { maxBytes: MAX_ANSWER_BYTES, bodyMs: timeoutMs } });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return readNodeMetrics(await response.json());
  } catch {
    // Not answering, or not JSON: the node is down for the metrics (kiln_node_up 0), nothing more.
    return null;
  }
}

/** Asks every node once and keeps what each said; nodes deleted since are forgotten. */
export async function collectNodeMetrics(db: Db, timeoutMs = NODE_TIMEOUT_MS): Promise<void> {
  const nodes = await db.select().from(schema.nodes).all();
  forgetNodesExcept(db, new Set(nodes.map((node) => node.id)));
  await Promise.all(nodes.map(async (node) => rememberNodeMetrics(db, node.id, await askNode(node, timeoutMs))));
}

/** Collects now and every `intervalMs` while a metrics token is set; returns the stop. */
export function startMetricsCollector(db: Db, intervalMs = METRICS_INTERVAL_MS): () => void {
  let running = false;
  const tick = async () => {
    // A round still waiting for a slow node is not doubled.
    if (running) return;
    if (!await metricsEnabled(db)) return forgetNodesExcept(db, new Set());
    running = true;
    try {
      await collectNodeMetrics(db);
    } catch (error) {
      console.error(`kiln: collecting node metrics failed: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
