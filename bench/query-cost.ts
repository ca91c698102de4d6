// bench/query-cost: the node's CPU for asking 100 running servers who plays, every 15 s as the
// node does (daemon/query: one PlayersWatch per server, the real queries): 50 answer Minecraft's
// Server List Ping over TCP (our module), 50 Quake 3's getstatus over UDP (GameDig). The
// responders run in a process of their own; what is measured is this process's user+system CPU
// over three query rounds, as a share of one core. Budget: at most 1% of a core.
//   bun bench/query-cost.ts [servers=100] [rounds=3]
import { spawn } from "node:child_process";
import { join } from "node:path";
import { PlayersWatch } from "../daemon/query/players-watch";
import { isPlayersAnswer } from "../core/players/players-state";
import { DEFAULT_QUERY_INTERVAL_MS } from "../daemon/config";
import { machine, table, verdict } from "./lib/figures";

const SERVERS = Math.max(2, Number(process.argv[2] ?? 100));
const ROUNDS = Math.max(1, Number(process.argv[3] ?? 3));
const BUDGET = 1;
const AIM = 0.5;
const HALF = Math.floor(SERVERS / 2);
const TCP_BASE = 41000;
const UDP_BASE = 42000;

const responders = spawn("node", [join(import.meta.dir, "lib", "query-responders.mjs"), String(HALF), String(TCP_BASE), String(UDP_BASE)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise<void>((resolve, reject) => {
  responders.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
  responders.on("exit", (code) => reject(new Error(`responders exited ${code}`)));
});

const watches = Array.from({ length: SERVERS }, (_, i) => {
  const tcp = i < HALF;
  return new PlayersWatch({
    intervalMs: DEFAULT_QUERY_INTERVAL_MS,
    plan: () => (tcp ? { type: "minecraft", port: TCP_BASE + i } : { type: "quake3", port: UDP_BASE + (i - HALF) }),
    host: () => "127.0.0.1",
  });
});

// Warm-up: the first round loads GameDig's protocol modules and JIT-compiles the paths.
for (const w of watches) w.follow(true);
await Bun.sleep(3000);
const answered = watches.filter((w) => isPlayersAnswer(w.current())).length;

const before = process.cpuUsage();
const started = performance.now();
await Bun.sleep(ROUNDS * DEFAULT_QUERY_INTERVAL_MS);
const used = process.cpuUsage(before);
const elapsed = performance.now() - started;
for (const w of watches) w.stop();
responders.kill();

const percent = ((used.user + used.system) / 1000 / elapsed) * 100;
console.log(`bench/query-cost — ${machine()}`);
console.log(`${SERVERS} servers (${HALF} Minecraft SLP over TCP, ${SERVERS - HALF} Quake 3 over UDP through GameDig), asked every ${DEFAULT_QUERY_INTERVAL_MS / 1000} s; ${answered}/${SERVERS} answered in the warm-up round`);
const outcome = verdict(percent, BUDGET, AIM);
table(["measure", "value", "budget [aim]", "verdict"], [[`node CPU over ${ROUNDS} rounds (${(elapsed / 1000).toFixed(0)} s)`, `${percent.toFixed(3)} % of a core`, `≤ ${BUDGET} % [${AIM} %]`, outcome]]);
if (answered < SERVERS) console.log(`warning: only ${answered} of ${SERVERS} answered`);
process.exit(outcome === "EXCEEDED" ? 1 : 0);
