// /metrics's page: per server, per node and the panel's own figures, from what the collector
// keeps (./node-figures), the HTTP counters, the registered gauges and the database's names. It
// never asks a node: a node that has not answered within STALE_AFTER_INTERVALS intervals is
// down, and its servers say only kiln_server_up 0.
import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { schema } from "../../db";
import { SERVER_METRIC_STATES, type ServerFigures } from "../../core/metrics";
import { Exposition, labelText, type Family, type Flavor } from "./exposition";
import type { HttpMetrics } from "./http";
import { recallNodeMetrics, type NodeRecord } from "./node-figures";
import { registeredGauges } from "./registry";
import { METRICS_INTERVAL_MS } from "./collector";

/** Figures older than this many collector intervals are stale: the node is down for the metrics. */
export const STALE_AFTER_INTERVALS = 3;

export interface RenderOptions {
  http: HttpMetrics;
  version: string;
  /** Open console sockets the panel proxies now. */
  openSockets: number;
  intervalMs?: number;
  now?: number;
}

interface ServerRow {
  labels: string;
  figures: ServerFigures | null;
}

type Sample = readonly [labels: string, value: number];

/** One family and its samples, one or more per row (null: none); a family with no sample is left out. */
function write<T>(out: Exposition, family: Family, rows: readonly T[], sample: (row: T) => Sample | readonly Sample[] | null): void {
  const lines: Sample[] = [];
  for (const row of rows) {
    const got = sample(row);
    if (got === null) continue;
    if (typeof got[0] === "string") lines.push(got as Sample);
    else lines.push(...(got as readonly Sample[]));
  }
  if (lines.length === 0) return;
  out.family(family);
  const name = family.type === "counter" ? `${family.name}_total` : family.name;
  for (const [labels, value] of lines) out.sample(name, labels, value);
}

export async function renderMetrics(db: Db, flavor: Flavor, options: RenderOptions): Promise<string> {
  const now = options.now ?? Date.now();
  const staleBefore = now - STALE_AFTER_INTERVALS * (options.intervalMs ?? METRICS_INTERVAL_MS);
  const out = new Exposition(flavor);

  const nodes = await db.select({ id: schema.nodes.id, name: schema.nodes.name }).from(schema.nodes).all();
  const records = new Map<number, NodeRecord | null>(nodes.map((node) => [node.id, recallNodeMetrics(db, node.id)]));
  const fresh = (record: NodeRecord | null | undefined) => (record?.figures && record.at >= staleBefore ? record.figures : null);
  const nodeRows = nodes.map((node) => ({ labels: labelText([["node", node.name]]), name: node.name, record: records.get(node.id) ?? null, figures: fresh(records.get(node.id)) }));
  const nodeNames = new Map(nodes.map((node) => [node.id, node.name]));

  const servers = await db
    .select({ id: schema.servers.id, name: schema.servers.name, nodeId: schema.servers.nodeId })
    .from(schema.servers)
    .where(eq(schema.servers.state, "ready"))
    .all();
  const serverRows: ServerRow[] = servers.map((server) => ({
    labels: labelText([["server_id", server.id], ["server_name", server.name], ["node", nodeNames.get(server.nodeId) ?? ""]]),
    figures: fresh(records.get(server.nodeId))?.servers[server.id] ?? null,
  }));

  // Servers: up for every server; the rest only where its node said.
  write(out, { name: "kiln_server_up", type: "gauge", help: "1 when the server runs and is ready, 0 otherwise (also when its node has not answered)." }, serverRows, (r) => [r.labels, r.figures?.state === "running" ? 1 : 0]);
  write(out, { name: "kiln_server_state", type: "gauge", help: "The server's state: 1 for the one it is in (running, stopped, installing, starting), 0 for the others." }, serverRows, (r) =>
    // The server's label set with one more label: its closing brace moved past state="…".
    r.figures ? SERVER_METRIC_STATES.map((state): Sample => [`${r.labels.slice(0, -1)},state="${state}"}`, r.figures!.state === state ? 1 : 0]) : null,
  );
  write(out, { name: "kiln_server_cpu_percent", type: "gauge", unit: "percent", help: "CPU the server's processes use, in percent of one core." }, serverRows, (r) => (r.figures?.cpuPercent != null ? [r.labels, r.figures.cpuPercent] : null));
  write(out, { name: "kiln_server_memory_bytes", type: "gauge", unit: "bytes", help: "Resident memory of the server's processes." }, serverRows, (r) => (r.figures?.memoryBytes != null ? [r.labels, r.figures.memoryBytes] : null));
  write(out, { name: "kiln_server_disk_bytes", type: "gauge", unit: "bytes", help: "Bytes the server's folder takes on disk, as last measured." }, serverRows, (r) => (r.figures?.diskBytes != null ? [r.labels, r.figures.diskBytes] : null));
  write(out, { name: "kiln_server_uptime_seconds", type: "gauge", unit: "seconds", help: "Seconds since the server last became running." }, serverRows, (r) => (r.figures?.uptimeSeconds != null ? [r.labels, r.figures.uptimeSeconds] : null));
  write(out, { name: "kiln_server_restarts", type: "counter", help: "Restarts of the server (asked for, or automatic after an exit) since its node started." }, serverRows, (r) => (r.figures ? [r.labels, r.figures.restarts] : null));
  write(out, { name: "kiln_server_crashes", type: "counter", help: "Times the server's process ended unasked with a failure since its node started." }, serverRows, (r) => (r.figures ? [r.labels, r.figures.crashes] : null));
  write(out, { name: "kiln_server_players_online", type: "gauge", help: "Players online, as the node last asked the game (only servers whose template declares a query)." }, serverRows, (r) => (r.figures?.playersOnline != null ? [r.labels, r.figures.playersOnline] : null));

  // Nodes.
  write(out, { name: "kiln_node_up", type: "gauge", help: "1 when the node answered the panel's last metrics collection, 0 otherwise." }, nodeRows, (r) => [r.labels, r.figures ? 1 : 0]);
  write(out, { name: "kiln_node_last_contact_timestamp_seconds", type: "gauge", unit: "seconds", help: "When the node last answered the panel's metrics collection (Unix time)." }, nodeRows, (r) =>
    r.record?.lastContact != null ? [r.labels, r.record.lastContact / 1000] : null,
  );
  write(out, { name: "kiln_node_info", type: "gauge", help: "Always 1; the Kiln version the node runs in its version label." }, nodeRows, (r) => (r.figures ? [labelText([["node", r.name], ["version", r.figures.version]]), 1] : null));
  write(out, { name: "kiln_node_servers", type: "gauge", help: "Servers the node holds." }, nodeRows, (r) => (r.figures ? [r.labels, Object.keys(r.figures.servers).length] : null));
  for (const [i, window] of (["1", "5", "15"] as const).entries()) {
    write(out, { name: `kiln_node_load${window}`, type: "gauge", help: `The node's ${window} minute load average.` }, nodeRows, (r) => (r.figures ? [r.labels, r.figures.machine.load[i]!] : null));
  }
  write(out, { name: "kiln_node_memory_total_bytes", type: "gauge", unit: "bytes", help: "The node machine's memory." }, nodeRows, (r) => (r.figures ? [r.labels, r.figures.machine.memoryTotalBytes] : null));
  write(out, { name: "kiln_node_memory_available_bytes", type: "gauge", unit: "bytes", help: "Memory the node machine can still give without swapping." }, nodeRows, (r) => (r.figures ? [r.labels, r.figures.machine.memoryAvailableBytes] : null));
  write(out, { name: "kiln_node_disk_total_bytes", type: "gauge", unit: "bytes", help: "Size of the file system holding the node's data folder." }, nodeRows, (r) => (r.figures?.machine.diskTotalBytes != null ? [r.labels, r.figures.machine.diskTotalBytes] : null));
  write(out, { name: "kiln_node_disk_free_bytes", type: "gauge", unit: "bytes", help: "Bytes free to the node's servers on the file system holding its data folder." }, nodeRows, (r) => (r.figures?.machine.diskFreeBytes != null ? [r.labels, r.figures.machine.diskFreeBytes] : null));

  // The panel.
  write(out, { name: "kiln_panel_info", type: "gauge", help: "Always 1; the Kiln version the panel runs in its version label." }, [options.version], (version) => [labelText([["version", version]]), 1]);
  options.http.write(out);
  write(out, { name: "kiln_panel_open_sockets", type: "gauge", help: "Console sockets the panel proxies to nodes now." }, [options.openSockets], (n) => ["", n]);
  for (const gauge of await registeredGauges()) write(out, { name: gauge.name, type: "gauge", help: gauge.help }, [gauge.value], (value) => ["", value]);
  return out.text();
}
