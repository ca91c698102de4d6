// bench/database: the panel on SQLite, on PostgreSQL, and as two panels on one PostgreSQL
// database, with 10,000 servers. Each panel (no local node) runs pinned to one CPU (taskset); wrk
// drives it with 100 connections for SECONDS after 2 s of warm-up: the authenticated JSON server
// list (GET /api/servers, the first page of 10,000) and the login page, at one CPU. For two panels
// each is pinned to its own CPU and two wrk processes (50 connections each, as a round-robin
// balancer would split them) load them at once; their requests/s add up. PostgreSQL's own
// processes are not pinned: they share the machine's CPUs with whatever else runs.
// Needs wrk, two CPUs, and a PostgreSQL server: KILN_BENCH_POSTGRES_URL or KILN_TEST_POSTGRES_URL.
//   KILN_BENCH_EXE=dist/kiln bun bench/database.ts [seconds=10]
import { join } from "node:path";
import { openDatabase, schema, type Db } from "../db";
import { createUser } from "../server/services/users";
import { SCOPES } from "../core/scopes";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { freshPostgresDatabase } from "../test/helpers/database";
import { kilnCommand, kilnLabel } from "./lib/kiln";
import { machine, table } from "./lib/figures";

const SECONDS = Number(process.argv[2] ?? 10);
const SERVERS = 10_000;
const ADMIN = { email: "bench@example.com", password: "bench-password" };
const postgresServer = process.env.KILN_BENCH_POSTGRES_URL ?? process.env.KILN_TEST_POSTGRES_URL;
if (!postgresServer) throw new Error("a PostgreSQL server is needed: KILN_BENCH_POSTGRES_URL=postgres://…");

/** 10,000 servers on one node, an administrator; the rows a real installation of that size holds. */
async function fill(db: Db): Promise<void> {
  await createUser(db, { ...ADMIN, username: "bench", scopes: [SCOPES.admin] });
  // A node at a dead address: the list's player counts are asked of it and come back empty at once.
  const node = await db.insert(schema.nodes).values({ name: "bench", publicHost: "127.0.0.1", publicPort: 9, privateHost: "127.0.0.1", privatePort: 9, sftpPort: 1, secret: "bench-secret-0123456789", createdAt: new Date() }).returning().get();
  await db.transaction(async (tx) => {
    for (let i = 0; i < SERVERS; i += 500) {
      const rows = Array.from({ length: Math.min(500, SERVERS - i) }, (_, k) => ({ id: (i + k).toString(16).padStart(8, "0"), name: `server ${i + k}`, nodeId: node.id, template: "bench", ip: "127.0.0.1", port: 25565, createdAt: new Date() }));
      await tx.insert(schema.servers).values(rows).run();
    }
  });
  // PostgreSQL's autovacuum gathers the planner's statistics within a minute of such inserts; the
  // bench measures at once, so it gathers them itself (without them the list sorts every row).
  if (db.$kiln.dialect === "postgres") await db.$kiln.raw("analyze");
}

interface Figures {
  rps: number;
  p50: string;
  p99: string;
  errors: number;
}

function wrk(cpu: string, url: string, connections: number, seconds: number, headers: Record<string, string> = {}): Promise<Figures> {
  const args = ["taskset", "-c", cpu, "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url];
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  return (async () => {
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
      p50: /\s50%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?",
      p99: /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?",
      errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    };
  })();
}

async function panel(cpu: string, database: string) {
  const port = await freePort();
  const started = await startKiln(["taskset", "-c", cpu, ...kilnCommand("panel"), "--no-local-node"], { KILN_DATA: tempDir("kiln-bench-db-"), KILN_DATABASE_URL: database, KILN_PORT: String(port), KILN_HOST: "127.0.0.1" }, /panel listening on/);
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  const { session } = (await login.json()) as { session: string };
  const list = await fetch(`${base}/api/servers`, { headers: { authorization: `Bearer ${session}` } });
  const body = (await list.json()) as { paging?: { total: number } };
  if (!list.ok) throw new Error(`the list answered ${list.status}`);
  return { base, session, total: body.paging?.total, stop: async () => void (started.proc.kill(), await started.proc.exited) };
}

const row = (label: string, f: Figures): (string | number)[] => [label, Math.round(f.rps), f.p50, f.p99, f.errors];

console.log(machine());
console.log(kilnLabel());
const sqlite = join(tempDir("kiln-bench-sqlite-"), "kiln.db");
const postgres = await freshPostgresDatabase(postgresServer);
for (const location of [sqlite, postgres]) {
  const db = await openDatabase(location);
  await fill(db);
  await db.$kiln.close();
}

const rows: (string | number)[][] = [];
for (const [engine, location] of [["SQLite", `sqlite:${sqlite}`], ["PostgreSQL", postgres]] as const) {
  const one = await panel("0", location);
  try {
    const auth = { authorization: `Bearer ${one.session}` };
    await wrk("1", `${one.base}/api/servers`, 100, 2, auth);
    rows.push(row(`${engine}, one panel: GET /api/servers (${one.total} servers), 100 connections`, await wrk("1", `${one.base}/api/servers`, 100, SECONDS, auth)));
    await wrk("1", `${one.base}/auth/login`, 100, 2);
    rows.push(row(`${engine}, one panel: GET /auth/login, 100 connections`, await wrk("1", `${one.base}/auth/login`, 100, SECONDS)));
  } finally {
    await one.stop();
  }
}

// Two panels on the same PostgreSQL database, one per CPU, each loaded by its own wrk.
const [left, right] = [await panel("0", postgres), await panel("1", postgres)];
try {
  const load = (cpu: string, p: typeof left, seconds: number) => wrk(cpu, `${p.base}/api/servers`, 50, seconds, { authorization: `Bearer ${p.session}` });
  await Promise.all([load("1", left, 2), load("0", right, 2)]);
  const [l, r] = await Promise.all([load("1", left, SECONDS), load("0", right, SECONDS)]);
  rows.push(["PostgreSQL, two panels (one per CPU, wrk beside each): GET /api/servers, 2 × 50 connections", Math.round(l.rps + r.rps), `${l.p50} / ${r.p50}`, `${l.p99} / ${r.p99}`, l.errors + r.errors]);
} finally {
  await left.stop();
  await right.stop();
}

table(["what", "requests/s", "p50", "p99", "non-2xx"], rows);
console.log("\nfor comparison, published at one EPYC core: about 16,700 requests/s for a public settings endpoint and 2,600 for an authenticated list (PufferPanel 3.0.9, Calagopus 1.1)");
