// What the file benches share: the sample file they move, and timing a command that moves it.
import { closeSync, openSync, writeSync } from "node:fs";

const MIB = 1024 * 1024;

/** Writes `megabytes` MiB to `path`, each MiB one repeated byte, so no two neighbours are alike. */
export function writeSampleFile(path: string, megabytes: number): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(MIB);
  try {
    for (let i = 0; i < megabytes; i++) writeSync(fd, block.fill(i % 251));
  } finally {
    closeSync(fd);
  }
}

/** Runs a command to its end and answers how long it took, in ms; throws with its stderr when it fails. */
export async function timedRun(argv: string[], options: { cwd?: string; stdin?: string } = {}): Promise<number> {
  const start = performance.now();
  const proc = Bun.spawn(argv, { cwd: options.cwd, stdin: options.stdin ? Bun.file(options.stdin) : "ignore", stdout: "ignore", stderr: "pipe" });
  if ((await proc.exited) !== 0) throw new Error(`${argv[0]} failed: ${await new Response(proc.stderr).text()}`);
  return performance.now() - start;
}
