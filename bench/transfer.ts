// bench/transfer: a running server with a folder of 1 GB of mixed files (4 MiB region files of
// random bytes, logs, a thousand small configs) moved between two real `kiln daemon` processes by
// the panel's transfer service, twice: with keepRunning (copied while it runs, stopped only for
// the final sync) and without (stopped for the whole copy). Reported: the whole move's time and
// throughput, and the downtime: from the source's stop (the transfer entering its final sync, or
// its start without keepRunning) to the server running on the target. The target: with
// keepRunning, down for at most the final sync (seconds).
//   bun bench/transfer.ts [megabytes=1024]    (KILN_BENCH_EXE=dist/kiln for the executable users run)
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { testPanel, loginAs } from "../test/helpers/app";
import { echoTemplate } from "../test/helpers/node";
import { putTemplate } from "../server/services/templates";
import { SCOPES } from "../core/scopes";
import { startDaemon, type Daemon } from "./lib/daemon";
import { kilnLabel } from "./lib/kiln";
import { machine, mb, table } from "./lib/figures";

const MEGABYTES = Number(process.argv[2] ?? 1024);
const MIB = 1024 * 1024;

function writeFolder(dir: string): void {
  mkdirSync(join(dir, "world", "region"), { recursive: true });
  mkdirSync(join(dir, "config"), { recursive: true });
  const regions = Math.floor((MEGABYTES * 0.9) / 4);
  for (let i = 0; i < regions; i++) writeFileSync(join(dir, "world", "region", `r.${i}.mca`), randomBytes(4 * MIB));
  const small = Math.floor((MEGABYTES * 0.1 * MIB) / 1000);
  for (let i = 0; i < 1000; i++) writeFileSync(join(dir, "config", `c${i}.json`), randomBytes(small));
}

const panel = await testPanel();
const admin = await loginAs(panel.db, [SCOPES.admin]);
await putTemplate(panel.db, "echo", echoTemplate());
const daemons: Daemon[] = [await startDaemon(), await startDaemon()];
const nodeIds = await Promise.all(daemons.map(async (d, i) => (await panel.db.insert(schema.nodes).values({ name: `node-${i}`, publicHost: "127.0.0.1", publicPort: Number(new URL(d.base).port), privateHost: "127.0.0.1", privatePort: Number(new URL(d.base).port), sftpPort: 1, secret: d.secret, createdAt: new Date() }).returning().get()).id));
const call = async (method: string, path: string, body?: unknown) => {
  const res = await panel.request(path, { token: admin.token, method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
};

async function move(keepRunning: boolean): Promise<string[]> {
  const { id } = (await call("POST", "/api/servers", { name: `bench-${keepRunning ? "live" : "cold"}`, node: nodeIds[0], template: "echo", environment: { type: "standard" } })) as { id: string };
  await Bun.sleep(1000); // its install (a one-line file) has run
  writeFolder(join(daemons[0]!.dataDir, "servers", id));
  await call("POST", `/proxy/daemon/server/${id}/start?wait=true`);
  const started = performance.now();
  await call("POST", `/api/servers/${id}/transfer`, { node: nodeIds[1], keepRunning });
  let downFrom = keepRunning ? 0 : started;
  for (;;) {
    const now = (await call("GET", `/api/servers/${id}/transfer`)) as { state: string; error: string | null };
    if (keepRunning && downFrom === 0 && now.state === "syncing") downFrom = performance.now();
    if (now.state === "done") break;
    if (now.state === "failed" || now.state === "cancelled") throw new Error(`the move ${now.state}: ${now.error}`);
    await Bun.sleep(20);
  }
  const ended = performance.now();
  const onTarget = (await panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())!.nodeId === nodeIds[1];
  const status = (await call("GET", `/proxy/daemon/server/${id}/status`)) as { running: boolean };
  if (!onTarget || !status.running) throw new Error("the server is not running on the target");
  await call("POST", `/proxy/daemon/server/${id}/kill?wait=true`);
  const seconds = (ended - started) / 1000;
  return [keepRunning ? "keepRunning" : "stopped for the copy", `${seconds.toFixed(1)} s`, `${mb((MEGABYTES * MIB) / seconds)}/s`, `${((ended - downFrom) / 1000).toFixed(2)} s`];
}

try {
  console.log(`# bench/transfer: ${MEGABYTES} MB running server moved between two kiln daemon processes (${kilnLabel()}); ${machine()}`);
  const rows = [await move(true), await move(false)];
  table(["move", "whole move", "throughput", "downtime"], rows);
} finally {
  await Promise.all(daemons.map((d) => d.stop()));
}
