// GET /daemon/metrics's answer: every server's figures (as its stats and status say them, with
// its restart and crash counts) and the node's own machine, in one call per collector interval of
// the panel, so its /metrics never waits for a node.
import type { NodeMetricsAnswer, ServerFigures } from "../../core/metrics";
import { metricState } from "../../core/metrics";
import { isPlayersAnswer } from "../../core/players/players-state";
import type { Server, ServerStats } from "../servers/server";
import { machineFigures } from "./machine";

/** A server whose stats take longer (a Docker Engine that hangs) is answered without them. */
const STATS_TIMEOUT_MS = 5000;

/** The server's stats, or null when they fail or take longer than STATS_TIMEOUT_MS. */
async function statsWithin(server: Server): Promise<ServerStats | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(resolve, STATS_TIMEOUT_MS, null)));
  try {
    return await Promise.race([server.stats().catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function serverFigures(server: Server): Promise<ServerFigures> {
  const status = server.status();
  // Only a running server's processes have figures to read (/proc or the Docker Engine).
  const stats = status.running ? await statsWithin(server) : null;
  const players = server.players.current();
  return {
    state: metricState(status),
    cpuPercent: status.running ? (stats?.cpu ?? null) : 0,
    memoryBytes: status.running ? (stats?.memory ?? null) : 0,
    diskBytes: server.measuredDisk(),
    uptimeSeconds: stats?.uptime ?? null,
    ...server.counts(),
    playersOnline: status.running && isPlayersAnswer(players) ? players.online : null,
  };
}

export async function nodeMetrics(servers: Server[], dataDir: string, version: string): Promise<NodeMetricsAnswer> {
  const [machine, figures] = await Promise.all([machineFigures(dataDir), Promise.all(servers.map(async (server) => [server.id, await serverFigures(server)] as const))]);
  return { version, machine, servers: Object.fromEntries(figures) };
}
