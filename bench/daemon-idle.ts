// bench/daemon-idle: the resident memory (VmRSS) of `kiln daemon`, a real separate process,
// idle with no servers (fresh, and 15 s after the first request, asked for its state every 5 s as
// a panel does every 30 s), with one running quiet server and then with 20 (the daemon's own RSS,
// not its children's). Budgets (for the executable): idle at most 45 MB [aim 40 MB];
// added per running server after the first, beyond its console buffer, at most 1 MB (the first
// also reads back code the node shares among all servers; its figure is shown apart). Exits 1
// when a budget is broken.
//   bun bench/daemon-idle.ts [servers=20]
//   KILN_BENCH_EXE=dist/kiln bun bench/daemon-idle.ts
import { IDLE_AFTER_MS, QUIET_COMMAND, definition, idleRss, settledRss as settledAfter, startDaemon, type Daemon } from "./lib/daemon";
import { kilnLabel } from "./lib/kiln";
import { MB, RSS_COLUMNS, kb, machine, mb, rssRow, table, verdict } from "./lib/figures";

const SERVERS = Math.max(2, Number(process.argv[2] ?? 20));
const SETTLE_MS = 3000;
const BUDGET_IDLE = 45 * MB;
const AIM_IDLE = 40 * MB;
const BUDGET_PER_SERVER = 1 * MB;
const AIM_PER_SERVER = 1 * MB;

const settledRss = (pid: number, waitMs = SETTLE_MS) => settledAfter(pid, waitMs);


async function consoleText(daemon: Daemon, id: string): Promise<string> {
  return ((await daemon.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
}

/** Starts quiet servers and waits until each has answered a console command. */
async function startQuiet(daemon: Daemon, ids: string[]): Promise<void> {
  for (const id of ids) await daemon.json("PUT", `/daemon/server/${id}`, definition(QUIET_COMMAND));
  for (const id of ids) await daemon.json("POST", `/daemon/server/${id}/start?wait=true`);
  for (const id of ids) await daemon.json("POST", `/daemon/server/${id}/console`, `hello ${id}`);
  for (const id of ids) {
    const deadline = Date.now() + 5000;
    while (!(await consoleText(daemon, id)).includes(`got hello ${id}`)) {
      if (Date.now() > deadline) throw new Error(`${id} did not answer on its console`);
      await Bun.sleep(50);
    }
  }
}

const daemon = await startDaemon();
let fresh, idle, first, loaded;
let consoleBytes = 0;
let stopped;
try {
  fresh = await settledRss(daemon.pid);
  // A node that belongs to a panel is asked for its state now and then (every 30 s).
  await daemon.json("GET", "/daemon");
  idle = await idleRss(daemon.pid, () => daemon.json("GET", "/daemon"));

  // The first server is measured apart: starting and running one reads back the code the node
  // gave up after its start (see server/cli/start-pages.ts), which every later server shares.
  const ids = Array.from({ length: SERVERS }, (_, i) => `idle${i}`);
  await startQuiet(daemon, ids.slice(0, 1));
  first = await settledRss(daemon.pid);
  await startQuiet(daemon, ids.slice(1));
  loaded = await settledRss(daemon.pid);
  for (const id of ids) consoleBytes += Buffer.byteLength(await consoleText(daemon, id));
} finally {
  stopped = await daemon.stop();
}

const perServer = (loaded.rss - first.rss) / (SERVERS - 1);
const perServerBeyondBuffer = perServer - consoleBytes / SERVERS;

console.log(machine());
console.log(kilnLabel());
console.log();
table(
  ["daemon state", ...RSS_COLUMNS],
  [
    rssRow("idle, no servers, fresh start", fresh),
    rssRow(`idle, no servers, ${IDLE_AFTER_MS / 1000} s after the first API call`, idle),
    rssRow("1 running quiet server", first),
    rssRow(`${SERVERS} running quiet servers`, loaded),
  ],
);
console.log();
table(
  ["figure", "value"],
  [
    ["increase for the first server (with the code it reads back)", mb(first.rss - idle.rss)],
    [`increase for the other ${SERVERS - 1}`, mb(loaded.rss - first.rss)],
    ["increase per server after the first", kb(perServer)],
    [`console buffers in use (all ${SERVERS})`, kb(consoleBytes)],
    ["increase per server beyond its console buffer", kb(perServerBeyondBuffer)],
  ],
);
if (stopped.code !== 0 || stopped.leftovers > 0) console.log(`\nnote: daemon exited with ${stopped.code}; ${stopped.leftovers} host processes had to be killed afterwards`);

const idleVerdict = verdict(Math.max(fresh.rss, idle.rss), BUDGET_IDLE, AIM_IDLE);
const serverVerdict = verdict(perServerBeyondBuffer, BUDGET_PER_SERVER, AIM_PER_SERVER);
console.log(
  `\nbudget: idle ≤ ${mb(BUDGET_IDLE)} [${mb(AIM_IDLE)}]: ${mb(Math.max(fresh.rss, idle.rss))} ${idleVerdict}; ` +
    `per running server ≤ ${mb(BUDGET_PER_SERVER)} [${mb(AIM_PER_SERVER)}]: ${kb(perServerBeyondBuffer)} ${serverVerdict}`,
);
if (idleVerdict === "EXCEEDED" || serverVerdict === "EXCEEDED") process.exit(1);
