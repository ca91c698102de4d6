// bench/throughput: how many requests `kiln panel` answers at one CPU, against what its framework
// can. The panel (with its local node) runs pinned to CPU 0 (taskset), and so do a bare Hono app
// with one JSON route and Bun.serve alone, each idle while another is driven; wrk drives them from
// CPU 1 (64 connections, one thread, 10 s per measurement after 1 s of warm-up). Figures:
// requests/s, p50 and p99 latency, non-2xx answers, and the ratio to the bare Hono route. A shared
// VM's speed moves by half within minutes, so each endpoint is measured in ROUNDS rounds, each the
// bare route then the endpoint back to back; its figures are the round whose ratio is the median
// (the machine's speed cancels out within a round). Endpoints: the public config, the login page,
// the server list page logged in (10 servers), the authenticated JSON list, a static asset, a 404.
// Then the panel's
// memory (RSS, panel and local node in one process): before the load, right after it (more than a
// minute of it), and after 10 and 30 s of rest.
// Needs wrk (Debian's package) and two CPUs.
//   KILN_BENCH_EXE=dist/kiln bun bench/throughput.ts [seconds=10]
// Where the time goes: KILN_BENCH_PROFILE=<folder> runs the checkout's panel (React's production
// build, as the executable has) under Bun's CPU profiler and writes its Markdown profile there when
// the panel stops; KILN_BENCH_ONLY=<path> drives only the endpoint at that path.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { echoTemplate } from "../test/helpers/node";
import { BROWSER_ADMIN } from "../test/helpers/browser-panel";
import { NODE_PROCESS, kilnCommand, kilnLabel, localNodeEnv, nodeProcessIn } from "./lib/kiln";
import { readRss } from "./lib/daemon";
import { machine, table } from "./lib/figures";

const SECONDS = Number(process.argv[2] ?? 10);
const ROUNDS = 3;
const CONNECTIONS = 64;
const PIN_SERVER = ["taskset", "-c", "0"];
const PIN_LOAD = ["taskset", "-c", "1"];

interface Figures {
  rps: number;
  p50: string;
  p99: string;
  errors: number;
}

/** One wrk run against `url` with `headers`; its requests/s, latency percentiles and non-2xx/3xx answers. */
async function wrk(url: string, headers: Record<string, string> = {}, seconds = SECONDS): Promise<Figures> {
  const args = [...PIN_LOAD, "wrk", "-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url];
  const run = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
  const out = run.stdout.toString();
  if (run.exitCode !== 0) throw new Error(`wrk failed: ${run.stderr.toString()}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = /\s50%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?";
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?";
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50, p99, errors };
}

/** Resident memory in MB of the panel (taskset runs it in its own process) and its node's process if it has one. */
function rss(pids: number[]): number {
  return Math.round(readRss(pids).rss / 104857.6) / 10;
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  await wrk(url, headers, 1);
  return wrk(url, headers);
}

/** A bare app on CPU 0, kept running (idle while the others are driven): its /api/config address. */
async function yardstick(kind: "hono" | "bun"): Promise<{ url: string; proc: Bun.Subprocess }> {
  const port = await freePort();
  const proc = Bun.spawn([...PIN_SERVER, process.execPath, join(import.meta.dir, "lib", "bare-hono.ts"), String(port), kind], { stdout: "pipe", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}/api/config`;
  for (let i = 0; i < 100; i++) {
    if ((await fetch(url).catch(() => null))?.ok) break;
    await Bun.sleep(50);
  }
  return { url, proc };
}

/** An endpoint's figures and the bare route's, from the round of ROUNDS whose ratio is the median. */
async function paired(url: string, headers: Record<string, string>): Promise<{ endpoint: Figures; bare: Figures; ratio: number }> {
  const rounds: { endpoint: Figures; bare: Figures; ratio: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const bare = await measure(hono.url);
    const endpoint = await measure(url, headers);
    rounds.push({ endpoint, bare, ratio: endpoint.rps / bare.rps });
  }
  return rounds.sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)]!;
}

console.log(machine());
console.log(kilnLabel());
const hono = await yardstick("hono");
const bunAlone = await yardstick("bun");
process.on("exit", () => [hono, bunAlone].forEach(({ proc }) => proc.kill()));

const data = tempDir("kiln-bench-throughput-");
const port = await freePort();
const PROFILE = process.env.KILN_BENCH_PROFILE;
const ONLY = process.env.KILN_BENCH_ONLY;
const command = PROFILE ? [process.execPath, "--cpu-prof-md", `--cpu-prof-dir=${PROFILE}`, join(import.meta.dir, "..", "server", "main.ts"), "panel"] : kilnCommand("panel");
const kiln = await startKiln([...PIN_SERVER, ...command], { ...(PROFILE ? { NODE_ENV: "production" } : {}), KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: BROWSER_ADMIN.email, KILN_ADMIN_PASSWORD: BROWSER_ADMIN.password, ...localNodeEnv() }, /local node listening on/);
const base = `http://127.0.0.1:${port}`;
try {
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify(BROWSER_ADMIN) });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const json = { cookie, origin: base, "content-type": "application/json" };
  const put = await fetch(`${base}/api/templates/echo`, { method: "PUT", headers: json, body: JSON.stringify(echoTemplate()) });
  if (!put.ok) throw new Error(`template: ${put.status} ${await put.text()}`);
  const nodes = (await (await fetch(`${base}/api/nodes`, { headers: { cookie } })).json()) as { id: number }[];
  for (let i = 0; i < 10; i++) {
    const made = await fetch(`${base}/api/servers`, { method: "POST", headers: json, body: JSON.stringify({ name: `bench ${i}`, node: nodes[0]!.id, template: "echo", environment: { type: "standard" } }) });
    if (made.status !== 201) throw new Error(`server: ${made.status} ${await made.text()}`);
  }
  const loginPage = await (await fetch(`${base}/auth/login`)).text();
  const asset = /href="(\/[^"]+\.css)"/.exec(loginPage)?.[1] ?? "/static/css/kiln.css";

  const pids = [kiln.proc.pid, ...nodeProcessIn(kiln.output())];
  const before = rss(pids);
  const endpoints: Array<[string, string, Record<string, string>]> = [
    ["public config (GET /api/config)", "/api/config", {}],
    ["login page (GET /auth/login)", "/auth/login", {}],
    ["server list page, logged in, 10 servers (GET /server)", "/server", { cookie }],
    ["JSON server list, logged in (GET /api/servers)", "/api/servers", { cookie }],
    [`static asset (GET ${asset})`, asset, {}],
    ["not found (GET /no-such-page)", "/no-such-page", {}],
  ];
  const bareHono = await measure(hono.url);
  const bun = await measure(bunAlone.url);
  const rows: (string | number)[][] = [
    ["bare Hono, one JSON route", Math.round(bareHono.rps), bareHono.p50, bareHono.p99, bareHono.errors, "1", ""],
    ["Bun.serve alone", Math.round(bun.rps), bun.p50, bun.p99, bun.errors, (bun.rps / bareHono.rps).toFixed(2), ""],
  ];
  for (const [label, path, headers] of endpoints.filter(([, path]) => !ONLY || path === ONLY)) {
    const { endpoint, bare, ratio } = await paired(`${base}${path}`, headers);
    // A 404 is what the last row is about; elsewhere a non-2xx answer means the figure is not of the endpoint.
    rows.push([label, Math.round(endpoint.rps), endpoint.p50, endpoint.p99, endpoint.errors, ratio.toFixed(3), Math.round(bare.rps)]);
  }
  table(["endpoint", "requests/s", "p50", "p99", "non-2xx/3xx", "ratio to bare Hono", "bare Hono in its round"], rows);
  const loaded = rss(pids);
  await Bun.sleep(10_000);
  const rested = rss(pids);
  await Bun.sleep(20_000);
  console.log(`\npanel memory (RSS, with its local node${NODE_PROCESS ? ", the two processes summed" : ""}): ${before} MB before the load, ${loaded} MB right after it, ${rested} MB after 10 s of rest, ${rss(pids)} MB after 30 s`);
} finally {
  // SIGINT: the panel stops as on Ctrl-C, and Bun writes the profile on that exit.
  kiln.proc.kill(PROFILE ? "SIGINT" : "SIGTERM");
  await kiln.proc.exited;

  rmSync(data, { recursive: true, force: true });
}
