// bench/panel-idle: the resident memory (VmRSS) of `kiln panel` with its local node (one process),
// a real separate process: fresh, then 15 s after the first request (the server list asked for
// every 5 s meanwhile), then with one and with 20 quiet servers running on the local node (per
// server counted after the first, which reads back code all servers share), then over time with
// one browser tab open on a server's console tab (headless Chromium; the panel's own RSS, not the
// browser's nor the servers'). Budgets:
// idle 15 s after the first request at most 75 MB [70 MB]; added per running quiet server at most
// 1 MB; no growth with the tab open (the slope over the watch, MB per hour, is reported beside
// start, end and peak). Exits 1 when a budget is broken.
//   bun bench/panel-idle.ts [servers=20] [watch-minutes=10]
//   KILN_BENCH_EXE=dist/kiln bun bench/panel-idle.ts
// KILN_BENCH_METRICS=1 sets a metrics token first and has a Prometheus stand-in read /metrics
// every 5 s beside the server list (the node metrics collector then runs, every 15 s).
import { rmSync } from "node:fs";
import { launchBrowser } from "../test/helpers/browser";
import { BROWSER_ADMIN, logInAsAdmin } from "../test/helpers/browser-panel";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { IDLE_AFTER_MS, QUIET_COMMAND, idleRss, readRss, settledRss } from "./lib/daemon";
import { kilnCommand, kilnLabel, localNodeEnv, nodeProcessIn } from "./lib/kiln";
import { MB, RSS_COLUMNS, kb, machine, max, mb, rssRow, table, verdict } from "./lib/figures";

const SERVERS = Math.max(2, Number(process.argv[2] ?? 20));
const WATCH_MINUTES = Number(process.argv[3] ?? 10);
const SAMPLE_MS = 10_000;
const BUDGET_IDLE = 75 * MB;
const AIM_IDLE = 70 * MB;
const BUDGET_PER_SERVER = 1 * MB;
/** What we still call flat over the watch: the slope's noise on a garbage-collected heap. */
const FLAT_MB_PER_HOUR = 2;
const METRICS_TOKEN = "bench-metrics-token-0123456789";


/** Least-squares slope of RSS over time, in bytes per hour. */
function slopePerHour(samples: { at: number; rss: number }[]): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const meanT = samples.reduce((s, x) => s + x.at, 0) / n;
  const meanR = samples.reduce((s, x) => s + x.rss, 0) / n;
  const cov = samples.reduce((s, x) => s + (x.at - meanT) * (x.rss - meanR), 0);
  const varT = samples.reduce((s, x) => s + (x.at - meanT) ** 2, 0);
  return (cov / varT) * 3_600_000;
}

const data = tempDir("kiln-bench-panel-");
const port = await freePort();
const panel = await startKiln(
  kilnCommand("panel"),
  { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: BROWSER_ADMIN.email, KILN_ADMIN_PASSWORD: BROWSER_ADMIN.password, ...localNodeEnv() },
  /local node listening on/,
);
// The panel, and its node's process when it has one of its own (KILN_BENCH_LOCAL_NODE=process).
const pid = [panel.proc.pid, ...nodeProcessIn(panel.output())];
// localhost, not 127.0.0.1: the browser's secure context, as the browser tests use.
const base = `http://localhost:${port}`;
let fresh, idle, first, loaded;
const watch: { at: number; rss: number }[] = [];
try {
  fresh = await settledRss(pid, 3000);
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(BROWSER_ADMIN) });
  const token = ((await login.json()) as { session: string }).session;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const scrape = async () => {
    if (process.env.KILN_BENCH_METRICS !== "1") return;
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
    await res.text();
  };
  if (process.env.KILN_BENCH_METRICS === "1") await call("PUT", "/api/settings", { metricsToken: METRICS_TOKEN });
  // Someone's page asks for the server list now and then (and Prometheus for the metrics).
  idle = await idleRss(pid, () => Promise.all([call("GET", "/api/servers"), scrape()]));

  await call("PUT", "/api/templates/bench-quiet", { display: "Bench", run: { command: QUIET_COMMAND, stop: "exit" }, supportedEnvironments: [{ type: "standard" }] });
  const nodeId = ((await (await call("GET", "/api/nodes")).json()) as { id: number }[])[0]!.id;
  const ids: string[] = [];
  const addQuiet = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const { id } = (await (await call("POST", "/api/servers", { name: `quiet ${ids.length}`, node: nodeId, template: "bench-quiet", environment: { type: "standard" } })).json()) as { id: string };
      await call("POST", `/proxy/daemon/server/${id}/start?wait=true`);
      ids.push(id);
    }
  };
  // The first server is measured apart: adding and running one reads back the code the process
  // gave up after its start (see server/cli/start-pages.ts), which every later server shares.
  await addQuiet(1);
  first = await settledRss(pid, 3000);
  await addQuiet(SERVERS - 1);
  await scrape();
  loaded = await settledRss(pid, 3000);

  if (WATCH_MINUTES > 0) {
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext()).newPage();
      await logInAsAdmin(page, base);
      await page.goto(`${base}/server/${ids[0]}`);
      await page.waitForLoadState("networkidle");
      const started = performance.now();
      while (performance.now() - started < WATCH_MINUTES * 60_000) {
        if (panel.proc.exitCode !== null || panel.proc.signalCode) throw new Error(`the panel ended (${panel.proc.exitCode ?? panel.proc.signalCode}) while watched:\n${panel.output().slice(-3000)}`);
        watch.push({ at: performance.now() - started, rss: readRss(pid).rss });
        await Bun.sleep(SAMPLE_MS);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  panel.proc.kill("SIGTERM");
  await panel.proc.exited;
  rmSync(data, { recursive: true, force: true });
}

const perServer = (loaded.rss - first.rss) / (SERVERS - 1);
const slope = slopePerHour(watch);
console.log(machine());
console.log(kilnLabel());
console.log();
table(
  ["panel with its local node", ...RSS_COLUMNS],
  [
    rssRow("fresh start", fresh),
    rssRow(`${IDLE_AFTER_MS / 1000} s after the first request`, idle),
    rssRow("1 running quiet server", first),
    rssRow(`${SERVERS} running quiet servers`, loaded),
  ],
);
console.log(`\nadded per server after the first: ${kb(perServer)} (the first, with the code it reads back: ${mb(first.rss - idle.rss)})`);
if (watch.length > 1) {
  console.log();
  table(
    [`one console tab open, ${WATCH_MINUTES} min, sampled every ${SAMPLE_MS / 1000} s`, "value"],
    [
      ["RSS at the start", mb(watch[0]!.rss)],
      ["RSS at the end", mb(watch.at(-1)!.rss)],
      ["RSS peak", mb(max(watch.map((s) => s.rss)))],
      ["trend (least squares)", `${(slope / MB).toFixed(1)} MB per hour`],
    ],
  );
}
const idleVerdict = verdict(idle.rss, BUDGET_IDLE, AIM_IDLE);
const serverVerdict = verdict(perServer, BUDGET_PER_SERVER, BUDGET_PER_SERVER);
const flat = watch.length < 2 || slope / MB <= FLAT_MB_PER_HOUR;
console.log(
  `\nbudget: idle ≤ ${mb(BUDGET_IDLE)} [${mb(AIM_IDLE)}]: ${mb(idle.rss)} ${idleVerdict}; per running server ≤ ${mb(BUDGET_PER_SERVER)}: ${kb(perServer)} ${serverVerdict}; ` +
    `growth with a console tab open ≤ ${FLAT_MB_PER_HOUR} MB per hour: ${watch.length > 1 ? `${(slope / MB).toFixed(1)} MB per hour ${flat ? "met" : "EXCEEDED"}` : "not watched"}`,
);
if (idleVerdict === "EXCEEDED" || serverVerdict === "EXCEEDED" || !flat) process.exit(1);
