// bench/sandbox-start: how much the sandbox adds to starting a server's process. The same short
// command (`true`) is spawned the way the standard environment spawns it, once as is (as the
// server's uid when root) and once through the node's sandbox (bubblewrap, setpriv), alternating
// so both meet the same machine load; the figure is the median of the differences. Budget:
// at most 5 ms added to a start. Idle memory is not touched: the sandbox is a spawn argument,
// and the node keeps nothing per server for it. Exits 1 when the budget is broken.
// In-process (the node's sandbox functions, no kiln process), so KILN_BENCH_EXE does not apply.
//   bun bench/sandbox-start.ts [runs=60]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ISOLATION, probeIsolation, sandboxed, type Isolation } from "../daemon/environment/sandbox";
import { ServerUsers } from "../daemon/environment/server-user";
import { machine, median, ms, percentile, table, verdict } from "./lib/figures";

const RUNS = Number(process.argv[2] ?? 60);
const BUDGET_MS = 5;
const AIM_MS = 3;

const root = mkdtempSync(join(tmpdir(), "kiln-bench-sandbox-"));
const serverDir = join(root, "servers", "bench");
const binariesDir = join(root, "binaries");
Bun.spawnSync(["mkdir", "-p", serverDir, join(binariesDir, "bin")]);
const user = new ServerUsers(DEFAULT_ISOLATION.uidRange).claim(serverDir);
const isolation = probeIsolation(DEFAULT_ISOLATION, root, binariesDir);
if (!isolation.sandbox) {
  console.log(`no sandbox on this machine: ${isolation.reason}`);
  process.exit(1);
}
const without: Isolation = { ...isolation, sandbox: false, mode: "auto" };

async function startToExit(box: Isolation): Promise<number> {
  const target = sandboxed(["true"], { PATH: "/usr/bin:/bin" }, serverDir, { serverDir, user }, box);
  const started = performance.now();
  const proc = Bun.spawn(target.argv, { cwd: target.cwd, env: target.env, ...(target.uid === undefined ? {} : { uid: target.uid, gid: target.gid }), stdout: "ignore", stderr: "ignore" });
  await proc.exited;
  return performance.now() - started;
}

const plain: number[] = [];
const boxed: number[] = [];
const added: number[] = [];
try {
  for (let i = 0; i < 5; i++) await Promise.all([startToExit(without), startToExit(isolation)]); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const a = await startToExit(without);
    const b = await startToExit(isolation);
    plain.push(a);
    boxed.push(b);
    added.push(b - a);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(machine());
console.log(`${RUNS} starts of \`true\` each way, alternating; the node runs as ${process.getuid?.() === 0 ? "root (the command as the server's uid)" : "an unprivileged user"}`);
table(
  ["", "median", "p90", "min"],
  [
    ["without the sandbox", ms(median(plain)), ms(percentile(plain, 90)), ms(Math.min(...plain))],
    ["in the sandbox", ms(median(boxed)), ms(percentile(boxed, 90)), ms(Math.min(...boxed))],
    ["added by the sandbox", ms(median(added)), ms(percentile(added, 90)), ms(Math.min(...added))],
  ],
);
const figure = median(added);
console.log(`added to a start (median): ${ms(figure)}, budget ${BUDGET_MS} ms, aim ${AIM_MS} ms: ${verdict(figure, BUDGET_MS, AIM_MS)}`);
if (!(figure <= BUDGET_MS)) process.exit(1);
