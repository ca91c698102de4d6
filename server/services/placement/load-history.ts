// How loaded each node has been lately, for rebalancing proposals: every minute the panel asks each
// node for its metrics (one small request) and keeps the last hour of memory and CPU use and its
// servers' memory, in memory (a restarted panel starts over: a proposal needs a full period seen).
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { askMetrics } from "./index";

export const SAMPLE_EVERY_MS = 60_000;
const KEPT_MS = 60 * 60_000;

export interface LoadSample {
  at: number;
  memoryTotalBytes: number;
  memoryPercent: number;
  /** null: a node that does not say how many cores it has */
  cpuPercent: number | null;
  /** Each server's memory use now (bytes), by id. */
  serverMemory: Record<string, number>;
}

const history = new WeakMap<Db, Map<number, LoadSample[]>>();

function nodesOf(db: Db): Map<number, LoadSample[]> {
  let nodes = history.get(db);
  if (!nodes) history.set(db, (nodes = new Map()));
  return nodes;
}

export function samplesOf(db: Db, nodeId: number): readonly LoadSample[] {
  return nodesOf(db).get(nodeId) ?? [];
}

/** Asks every node once and keeps what each said; a node that does not answer adds nothing. */
export async function sampleLoad(db: Db, now = Date.now()): Promise<void> {
  const nodes = await db.select().from(schema.nodes).all();
  await Promise.all(nodes.map(async (node) => {
    const answer = await askMetrics(node);
    if (!answer) return;
    const { machine } = answer;
    const sample: LoadSample = {
      at: now,
      memoryTotalBytes: machine.memoryTotalBytes,
      memoryPercent: machine.memoryTotalBytes > 0 ? ((machine.memoryTotalBytes - machine.memoryAvailableBytes) / machine.memoryTotalBytes) * 100 : 0,
      cpuPercent: machine.cpus ? Math.min(100, (((machine.load[1] + machine.load[2]) / 2) / machine.cpus) * 100) : null,
      serverMemory: Object.fromEntries(Object.entries(answer.servers).map(([id, figures]) => [id, figures.memoryBytes ?? 0])),
    };
    const kept = [...samplesOf(db, node.id).filter((s) => s.at > now - KEPT_MS), sample];
    nodesOf(db).set(node.id, kept);
  }));
}

export function startLoadSampling(db: Db, everyMs = SAMPLE_EVERY_MS): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sampleLoad(db).catch((error: Error) => console.error(`kiln: sampling node load failed: ${error.message}`)).finally(() => (running = false));
  };
  // The first sample a minute after start, not during it: a proposal needs a whole period seen anyway.
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
