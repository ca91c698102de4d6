// bench/daemon-console-latency: how long a quiet server's console line takes to reach a socket
// client of `kiln daemon` (a real separate process).
//  1. Round trip: 200 console commands sent through the socket ({type:"console"}), each timed
//     until the server's "got ping-<n>" line arrives on the same socket. Paced at the socket's
//     action rate (5 a second), so no command is refused.
//  2. Daemon path only: a server prints its wall-clock time (`date +%s%N`) every 100 ms; each
//     line's age when it arrives at the socket client (same machine, same clock) is measured for
//     100 lines. This leaves out the command's way in and the shell's answer.
// Budget: a line written by a quiet process reaches a connected socket
// client in under 50 ms [aim 10 ms], checked on the 95th percentile of each part (max is shown).
// Exits 1 when a budget is broken.
//   bun bench/daemon-console-latency.ts [commands=200] [lines=100]
import { ACTION_RATE } from "../daemon/channel/limits";
import { QUIET_COMMAND, definition, startDaemon } from "./lib/daemon";
import { kilnLabel } from "./lib/kiln";
import { machine, max, median, ms, percentile, table, verdict } from "./lib/figures";

const COMMANDS = Number(process.argv[2] ?? 200);
const LINES = Number(process.argv[3] ?? 100);
/** One command per action token, with a little room for timer jitter. */
const COMMAND_INTERVAL_MS = 1000 / ACTION_RATE.rate + 10;
const BUDGET_MS = 50;
const AIM_MS = 10;
const CLOCK_COMMAND = `sh -c 'while true; do date +%s%N; sleep 0.1; done'`;

/** Wall-clock now in milliseconds with sub-millisecond resolution (the clock `date` reads, too). */
const wallClock = (at = performance.now()) => performance.timeOrigin + at;

const daemon = await startDaemon();
const roundTrips: number[] = [];
const ages: number[] = [];
try {
  await daemon.json("PUT", "/daemon/server/quiet", definition(QUIET_COMMAND));
  await daemon.json("PUT", "/daemon/server/clock", definition(CLOCK_COMMAND));
  await daemon.json("POST", "/daemon/server/quiet/start?wait=true");

  // 1. Round trips through the socket.
  const quiet = await daemon.socket("quiet");
  for (let n = 0; n < COMMANDS; n++) {
    const started = performance.now();
    const arrived = quiet.waitFor(`got ping-${n}\n`, 5000);
    quiet.send("console", { command: `ping-${n}` });
    try {
      roundTrips.push((await arrived) - started);
    } catch (error) {
      throw new Error(`${(error as Error).message}; daemon errors: ${JSON.stringify(quiet.errors)}`);
    }
    await Bun.sleep(Math.max(0, started + COMMAND_INTERVAL_MS - performance.now()));
  }
  quiet.close();

  // 2. Timestamped lines, daemon path only.
  const clock = await daemon.socket("clock");
  let done: () => void;
  const enough = new Promise<void>((resolve) => (done = resolve));
  let partial = "";
  clock.onConsole((text, at) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!/^\d{19}$/.test(line)) continue; // the daemon's own "[kiln] starting the server"
      ages.push(wallClock(at) - Number(BigInt(line) / 1000n) / 1000);
      if (ages.length === LINES) done();
    }
  });
  await daemon.json("POST", "/daemon/server/clock/start?wait=true");
  await Promise.race([enough, Bun.sleep(LINES * 200 + 5000).then(() => Promise.reject(new Error(`only ${ages.length} of ${LINES} timestamp lines arrived`)))]);
  clock.close();
} finally {
  await daemon.stop();
}

const row = (label: string, values: number[]) => [label, ms(median(values)), ms(percentile(values, 95)), ms(max(values)), values.length];
console.log(machine());
console.log(kilnLabel());
console.log();
table(
  ["measure", "median", "p95", "max", "samples"],
  [row("console command → answer on the socket (round trip)", roundTrips), row("line printed → arrives at the socket client (daemon path)", ages)],
);
const spikes = [...roundTrips, ...ages].filter((v) => v > BUDGET_MS).length;
if (spikes > 0) console.log(`\nnote: ${spikes} samples took longer than ${BUDGET_MS} ms`);

const roundTripVerdict = verdict(percentile(roundTrips, 95), BUDGET_MS, AIM_MS);
const pathVerdict = verdict(percentile(ages, 95), BUDGET_MS, AIM_MS);
console.log(
  `\nbudget: a quiet process's line reaches the socket client in < ${BUDGET_MS} ms [${AIM_MS} ms], p95: ` +
    `round trip ${ms(percentile(roundTrips, 95))} ${roundTripVerdict}; daemon path ${ms(percentile(ages, 95))} ${pathVerdict}`,
);
if (roundTripVerdict === "EXCEEDED" || pathVerdict === "EXCEEDED") process.exit(1);
