// bench/daemon-start: cold start of `kiln daemon` (a real separate process): from spawn until its
// API port answers an HTTP request, on a data folder that already holds its SFTP host key (the
// key is made on a node's first start only, so the first run is left out), with no servers.
// The median of N starts, each a fresh process; the page cache is warm, as on a node restarted
// by systemd. Budget: under 150 ms. Exits 1 when it is broken.
//   bun bench/daemon-start.ts [runs=15]
//   KILN_BENCH_EXE=dist/kiln bun bench/daemon-start.ts
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { freePort, tempDir } from "../test/helpers/process";
import { kilnCommand, kilnLabel } from "./lib/kiln";
import { machine, max, median, ms, percentile, table, verdict } from "./lib/figures";

const RUNS = Number(process.argv[2] ?? 15);
const BUDGET_MS = 150;
const AIM_MS = 100;
const POLL_MS = 2;

const dataDir = tempDir("kiln-bench-start-");
const secret = randomBytes(24).toString("base64url");

/** Starts a daemon, times until its port answers, stops it; null when it never answered. */
async function timeStart(): Promise<number> {
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", KILN_DAEMON_SECRET: secret, KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_PORT: String(port), KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: dataDir };
  const started = performance.now();
  const proc = Bun.spawn(kilnCommand("daemon"), { env, stdout: "ignore", stderr: "pipe" });
  try {
    while (performance.now() - started < 20_000) {
      // Any HTTP answer counts (401 without a node token): the listener is up and the app answers.
      const answered = await fetch(`http://127.0.0.1:${port}/daemon`).then(() => true, () => false);
      if (answered) return performance.now() - started;
      if (proc.exitCode !== null) throw new Error(`kiln daemon exited with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
      await Bun.sleep(POLL_MS);
    }
    throw new Error("kiln daemon did not answer within 20 s");
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

let first: number;
const times: number[] = [];
try {
  // The first start makes the host key (and the data folder's layout): reported, not counted.
  first = await timeStart();
  for (let i = 0; i < RUNS; i++) times.push(await timeStart());
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const result = verdict(median(times), BUDGET_MS, AIM_MS);
console.log(machine());
console.log(kilnLabel());
console.log();
table(
  ["start", "median", "p90", "max", "runs"],
  [
    ["first (makes the host key)", ms(first), "", "", 1],
    ["later (host key there)", ms(median(times)), ms(percentile(times, 90)), ms(max(times)), times.length],
  ],
);
console.log(`\nbudget: cold start to listening < ${ms(BUDGET_MS)} [${ms(AIM_MS)}]: ${ms(median(times))} ${result}`);
if (result === "EXCEEDED") process.exit(1);
