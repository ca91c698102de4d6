// bench/daemon-console-throughput: a server that writes as fast as it can (`yes`), in the
// standard environment (pipes, which the daemon can pause) and in the tty environment (a pty,
// which it cannot: output beyond the throttle is dropped and the console says so). For ~10 s a
// socket client counts the console bytes it receives while the daemon's CPU and RSS are sampled
// every 500 ms; meanwhile a second, quiet server answers console commands (POST /console, answer
// seen on its socket). Budgets (design.md "Budgets"): the daemon uses at most one core [aim half
// a core], its memory stays bounded (console buffer cap 4 MiB, trimmed to 2 MiB), and the quiet
// server's answers stay under 50 ms [aim 10 ms]. Exits 1 when a budget is broken.
//   bun bench/daemon-console-throughput.ts [seconds=10]
import type { TemplateInput } from "../core/definition";
import { QUIET_COMMAND, consoleNotes, daemonLabel, definition, findDescendant, readCpuSeconds, readRss, sampleProcess, startDaemon, type ConsoleSocket, type Daemon } from "./lib/daemon";
import { machine, max, mb, median, ms, pct, percentile, table, verdict } from "./lib/figures";

const FLOOD_SECONDS = Number(process.argv[2] ?? 10);
/** Output in the first seconds includes the throttle's burst; the steady rate is measured after it. */
const WARMUP_SECONDS = 2;
const BUDGET_CPU = 100;
const AIM_CPU = 50;
const BUDGET_ROUND_TRIP_MS = 50;
const AIM_ROUND_TRIP_MS = 10;
/** Growth we still call bounded: the buffer cap plus room for the socket's send queue and garbage. */
const RSS_GROWTH_LIMIT = 32 * 1024 * 1024;

interface CaseResult {
  name: string;
  bytesPerSecond: number;
  steadyBytesPerSecond: number;
  messagesPerSecond: number;
  cpuAverage: number;
  cpuMax: number;
  floodCpu: number;
  rssStart: number;
  rssMax: number;
  rssAfter: number;
  bufferBytes: number;
  dropped: number;
  skipped: number;
  idleRoundTrips: number[];
  floodRoundTrips: number[];
  errors: number;
}

/** POST /console on the quiet server, timed until its answer arrives on the socket. */
async function roundTrip(daemon: Daemon, socket: ConsoleSocket, n: number): Promise<number> {
  const command = `ping-${n}-${Date.now()}`;
  const arrived = socket.waitFor(`got ${command}\n`, 10_000);
  const sent = performance.now();
  const response = await daemon.call("POST", "/daemon/server/quiet/console", command);
  if (response.status !== 204) throw new Error(`POST /console → ${response.status} ${await response.text()}`);
  return (await arrived) - sent;
}

async function runCase(name: string, environment: TemplateInput["environment"]): Promise<CaseResult> {
  const daemon = await startDaemon();
  try {
    await daemon.json("PUT", "/daemon/server/quiet", definition(QUIET_COMMAND));
    await daemon.json("PUT", "/daemon/server/flood", definition("yes kiln-throughput-line", environment));
    await daemon.json("POST", "/daemon/server/quiet/start?wait=true");
    const quiet = await daemon.socket("quiet");
    const flood = await daemon.socket("flood");

    let n = 0;
    const idleRoundTrips: number[] = [];
    for (let i = 0; i < 20; i++) {
      idleRoundTrips.push(await roundTrip(daemon, quiet, n++));
      await Bun.sleep(100);
    }
    await Bun.sleep(1000);

    // Console bytes per second since the flood started, and the daemon's notes about dropped output.
    const perSecond: number[] = [];
    let notes = { dropped: 0, skipped: 0 };
    let t0 = performance.now();
    flood.onConsole((text, at) => {
      const second = Math.floor((at - t0) / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + Buffer.byteLength(text);
      if (text.includes("bytes of output were")) {
        const found = consoleNotes(text);
        notes = { dropped: notes.dropped + found.dropped, skipped: notes.skipped + found.skipped };
      }
    });
    const rssStart = readRss(daemon.pid).rss;
    const sampler = sampleProcess(daemon.pid, 500);
    const bytesBefore = flood.consoleBytes;
    const messagesBefore = flood.consoleMessages;
    t0 = performance.now();
    await daemon.json("POST", "/daemon/server/flood/start?wait=true");
    const floodPid = findDescendant(daemon.pid, "yes");
    const floodCpuStart = floodPid ? readCpuSeconds(floodPid) : 0;

    const floodRoundTrips: number[] = [];
    const end = t0 + FLOOD_SECONDS * 1000;
    while (performance.now() < end) {
      floodRoundTrips.push(await roundTrip(daemon, quiet, n++));
      await Bun.sleep(250);
    }
    const elapsed = (performance.now() - t0) / 1000;
    const floodCpu = floodPid ? ((readCpuSeconds(floodPid) - floodCpuStart) / elapsed) * 100 : NaN;
    const cpu = sampler.stop();
    const bytes = flood.consoleBytes - bytesBefore;
    const messages = flood.consoleMessages - messagesBefore;

    await daemon.json("POST", "/daemon/server/flood/kill?wait=true");
    // The throttle's last note (what it dropped since the previous one) comes with the exit.
    await flood.waitFor("the server was ended by", 5000).catch(() => undefined);
    await Bun.sleep(2000);
    const rssAfter = readRss(daemon.pid).rss;
    const buffer = ((await daemon.json("GET", "/daemon/server/flood/console")).logs as string[]).join("");
    const steady = perSecond.slice(WARMUP_SECONDS, Math.floor(elapsed));
    quiet.close();
    flood.close();
    return {
      name,
      bytesPerSecond: bytes / elapsed,
      steadyBytesPerSecond: steady.reduce((a, b) => a + (b ?? 0), 0) / Math.max(1, steady.length),
      messagesPerSecond: messages / elapsed,
      cpuAverage: cpu.averageCpuPercent,
      cpuMax: max(sampler.samples.map((s) => s.cpuPercent)),
      floodCpu,
      rssStart,
      rssMax: max([rssStart, ...sampler.samples.map((s) => s.rss)]),
      rssAfter,
      bufferBytes: Buffer.byteLength(buffer),
      dropped: notes.dropped,
      skipped: notes.skipped,
      idleRoundTrips,
      floodRoundTrips,
      errors: quiet.errors.length + flood.errors.length,
    };
  } finally {
    await daemon.stop();
  }
}

const results = [await runCase("standard", { type: "standard" }), await runCase("tty", { type: "tty" })];

const rate = (bytesPerSecond: number) => `${mb(bytesPerSecond)}/s`;
console.log(machine());
console.log(daemonLabel());
console.log(`flood: yes kiln-throughput-line for ${FLOOD_SECONDS} s; steady rate from second ${WARMUP_SECONDS} on\n`);
table(
  ["environment", "to socket", "steady", "messages/s", "daemon CPU avg", "daemon CPU max", "yes CPU", "RSS start", "RSS max", "growth", "RSS 2 s after kill", "buffer at end", "dropped (console note)"],
  results.map((r) => [
    r.name,
    rate(r.bytesPerSecond),
    rate(r.steadyBytesPerSecond),
    r.messagesPerSecond.toFixed(0),
    pct(r.cpuAverage),
    pct(r.cpuMax),
    pct(r.floodCpu),
    mb(r.rssStart),
    mb(r.rssMax),
    mb(r.rssMax - r.rssStart),
    mb(r.rssAfter),
    mb(r.bufferBytes),
    r.dropped > 0 ? mb(r.dropped) : "none",
  ]),
);
console.log();
table(
  ["environment", "quiet server round-trip", "median", "p95", "max", "samples"],
  results.flatMap((r) => [
    [r.name, "before the flood", ms(median(r.idleRoundTrips)), ms(percentile(r.idleRoundTrips, 95)), ms(max(r.idleRoundTrips)), r.idleRoundTrips.length],
    [r.name, "during the flood", ms(median(r.floodRoundTrips)), ms(percentile(r.floodRoundTrips, 95)), ms(max(r.floodRoundTrips)), r.floodRoundTrips.length],
  ]),
);
for (const r of results) {
  if (r.skipped > 0) console.log(`note (${r.name}): the daemon skipped ${mb(r.skipped)} for this client because it was not keeping up`);
  if (r.errors > 0) console.log(`note (${r.name}): the daemon answered ${r.errors} socket messages with an error`);
}

const broken: string[] = [];
console.log();
for (const r of results) {
  const cpu = verdict(r.cpuAverage, BUDGET_CPU, AIM_CPU);
  const memory = r.rssMax - r.rssStart <= RSS_GROWTH_LIMIT ? "bounded" : "GROWING";
  const answers = verdict(median(r.floodRoundTrips), BUDGET_ROUND_TRIP_MS, AIM_ROUND_TRIP_MS);
  const buffer = r.bufferBytes <= 4 * 1024 * 1024 ? "within cap" : "OVER CAP";
  console.log(
    `budget (${r.name}): daemon CPU ≤ ${BUDGET_CPU} % [${AIM_CPU} %]: ${pct(r.cpuAverage)} ${cpu}; ` +
      `memory growth ${mb(r.rssMax - r.rssStart)} ${memory}, buffer ${mb(r.bufferBytes)} ${buffer}; ` +
      `quiet server median round-trip < ${BUDGET_ROUND_TRIP_MS} ms [${AIM_ROUND_TRIP_MS} ms]: ${ms(median(r.floodRoundTrips))} ${answers}`,
  );
  if (cpu === "EXCEEDED" || memory !== "bounded" || answers === "EXCEEDED" || buffer !== "within cap") broken.push(r.name);
}
if (broken.length > 0) process.exit(1);
