// bench/flood: whether a flood of anonymous page requests delays what a logged-in user sees live.
// `kiln panel` with its local node runs pinned to CPU 0; a server of its node prints its wall-clock
// time every 100 ms, and a console socket through the panel's proxy (logged in, as the browser's)
// measures each line's age on arrival: first quiet, then while CPU 1 asks for the login page at
// the budget's 10,000 a second (bench/lib/paced-load), then as fast as the panel answers (wrk, 64
// connections). Budget (fast under a crowd): a flood of 10,000 a second delays a console
// line by at most 10 ms (p95 under the flood against the quiet median). Each load's first
// WARMUP_SECONDS are its warm-up, as in bench/throughput: the panel's JIT compiles the page's way
// and its heap grows to the load then, and a line of that time is 10–120 ms late; those lines are
// shown in rows of their own and are not in the budget. With
// KILN_BENCH_LOCAL_NODE=process the node runs in its own process, pinned with the panel (the
// child inherits the CPU).
//   KILN_BENCH_EXE=dist/kiln [KILN_BENCH_LOCAL_NODE=process] bun bench/flood.ts [seconds=10]
import { rmSync } from "node:fs";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { echoTemplate } from "../test/helpers/node";
import { BROWSER_ADMIN } from "../test/helpers/browser-panel";
import { kilnCommand, kilnLabel, localNodeEnv } from "./lib/kiln";
import { openConsoleSocket } from "./lib/daemon";
import { machine, max, median, ms, percentile, table } from "./lib/figures";

const SECONDS = Number(process.argv[2] ?? 10);
const BUDGET_MS = 10;
const WARMUP_SECONDS = 2;
const CLOCK_COMMAND = `sh -c 'while true; do date +%s%N; sleep 0.1; done'`;
/** Wall-clock now in milliseconds with sub-millisecond resolution (the clock `date` reads, too). */
const wallClock = (at = performance.now()) => performance.timeOrigin + at;

const data = tempDir("kiln-bench-flood-");
const port = await freePort();
const kiln = await startKiln(["taskset", "-c", "0", ...kilnCommand("panel")], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: BROWSER_ADMIN.email, KILN_ADMIN_PASSWORD: BROWSER_ADMIN.password, ...localNodeEnv() }, /local node listening on/);
const base = `http://127.0.0.1:${port}`;
const RATE = 10_000;
const quiet: number[] = [];
const paced: number[] = [];
const flooded: number[] = [];
const pacedWarmup: number[] = [];
const floodedWarmup: number[] = [];
let pacedRate = 0;
let floodRate = 0;
try {
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify(BROWSER_ADMIN) });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const json = { cookie, origin: base, "content-type": "application/json" };
  const put = await fetch(`${base}/api/templates/clock`, { method: "PUT", headers: json, body: JSON.stringify({ ...echoTemplate({ command: CLOCK_COMMAND, stop: "" }), name: "clock", install: [] }) });
  if (!put.ok) throw new Error(`template: ${put.status} ${await put.text()}`);
  const nodes = (await (await fetch(`${base}/api/nodes`, { headers: { cookie } })).json()) as { id: number }[];
  const made = await fetch(`${base}/api/servers`, { method: "POST", headers: json, body: JSON.stringify({ name: "clock", node: nodes[0]!.id, template: "clock", environment: { type: "standard" } }) });
  if (made.status !== 201) throw new Error(`server: ${made.status} ${await made.text()}`);
  const { id } = (await made.json()) as { id: string };

  const socket = await openConsoleSocket(`${base.replace(/^http/, "ws")}/proxy/daemon/socket/${id}`, { cookie, origin: base });
  let into = quiet;
  let partial = "";
  socket.onConsole((text, at) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (/^\d{19}$/.test(line)) into.push(wallClock(at) - Number(BigInt(line) / 1000n) / 1000);
  });
  const started = await fetch(`${base}/proxy/daemon/server/${id}/start?wait=true`, { method: "POST", headers: json });
  if (!started.ok) throw new Error(`start: ${started.status} ${await started.text()}`);
  await Bun.sleep(SECONDS * 1000);

  /** Lines go to `warmup` for the load's first WARMUP_SECONDS, then to `measured`. */
  const loadStarts = (warmup: number[], measured: number[]) => {
    into = warmup;
    setTimeout(() => (into = measured), WARMUP_SECONDS * 1000);
  };
  loadStarts(pacedWarmup, paced);
  const load = Bun.spawn(["taskset", "-c", "1", process.execPath, `${import.meta.dir}/lib/paced-load.ts`, `${base}/auth/login`, String(RATE), String(SECONDS + WARMUP_SECONDS)], { stdout: "pipe", stderr: "inherit" });
  pacedRate = (JSON.parse(await new Response(load.stdout).text()) as { rate: number }).rate;
  await load.exited;

  loadStarts(floodedWarmup, flooded);
  const wrk = Bun.spawn(["taskset", "-c", "1", "wrk", "-t1", "-c64", `-d${SECONDS + WARMUP_SECONDS}s`, `${base}/auth/login`], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(wrk.stdout).text();
  await wrk.exited;
  floodRate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  into = [];
  socket.close();
} finally {
  kiln.proc.kill();
  await kiln.proc.exited;
  rmSync(data, { recursive: true, force: true });
}

const row = (label: string, values: number[]) => [label, ms(median(values)), ms(percentile(values, 95)), ms(max(values)), values.length];
console.log(machine());
console.log(kilnLabel());
console.log();
table(["a console line's age on arrival", "median", "p95", "max", "lines"], [
  row("quiet", quiet),
  row(`paced at ${RATE} a second: its first ${WARMUP_SECONDS} s (warm-up, not in the budget)`, pacedWarmup),
  row(`under ${pacedRate} login pages a second (paced at ${RATE})`, paced),
  row(`wrk: its first ${WARMUP_SECONDS} s (warm-up, not in the budget)`, floodedWarmup),
  row(`under a flood of ${Math.round(floodRate)} login pages a second (wrk, as fast as answered)`, flooded),
]);
const delay = percentile(paced, 95) - median(quiet);
console.log(`\nbudget: ${RATE} login pages a second delay a line by at most ${BUDGET_MS} ms (p95 under them against the quiet median): ${ms(delay)} ${delay <= BUDGET_MS ? "met" : "EXCEEDED"}`);
