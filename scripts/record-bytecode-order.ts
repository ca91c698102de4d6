// Records which bytecode `kiln daemon` and `kiln panel` use when they start, serve their first
// requests and run a few servers, for build.ts's profile-guided layout: the executable
// built with these files places that bytecode together at its front, so a start touches fewer of
// its pages. The scenarios are the idle benchmarks', run against dist/kiln. A profile recorded
// from an older build still applies; record again after large changes to what a start runs.
//   npm run build && bun scripts/record-bytecode-order.ts && npm run build
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const EXE = join(ROOT, "dist", "kiln");
const OUT = join(ROOT, "scripts", "bytecode-order");

if (!existsSync(EXE)) {
  console.error("record-bytecode-order: build first (npm run build)");
  process.exit(2);
}
mkdirSync(OUT, { recursive: true });

/** Runs a benchmark against the executable, which writes the bytecode it used to `file` as it exits. */
async function record(file: string, bench: string[]): Promise<void> {
  const path = join(OUT, file);
  rmSync(path, { force: true });
  // test/helpers/process.ts passes BUN_BYTECODE_ORDER_OUT on to the kiln it starts.
  const run = Bun.spawn([process.execPath, ...bench], { cwd: ROOT, env: { ...process.env, KILN_BENCH_EXE: EXE, BUN_BYTECODE_ORDER_OUT: path }, stdout: "ignore", stderr: "inherit" });
  await run.exited;
  // A broken budget exits 1 and is no concern here; a missing profile is.
  if (!existsSync(path)) throw new Error(`${bench.join(" ")} wrote no profile`);
  console.log(`recorded ${file}`);
}

// The node first: a node alone is the most common start on a small VPS.
await record("daemon.order", ["bench/daemon-idle.ts", "3"]);
await record("panel.order", ["bench/panel-idle.ts", "3", "1"]);
