// Runs `kiln` as a real process: the executable npm test built (KILN_TEST_EXE, what users run),
// else the source tree (bun server/main.ts) when a test file runs on its own.
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Subprocess } from "bun";
import { collectOutput } from "./output";

export const ROOT = join(import.meta.dir, "..", "..");
export const KILN = process.env.KILN_TEST_EXE ? [process.env.KILN_TEST_EXE] : [process.execPath, join(ROOT, "server", "main.ts")];

export function tempDir(prefix = "kiln-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function runKiln(args: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const proc = Bun.spawnSync([...KILN, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env } });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/** Starts a long-running kiln and waits for a line matching `ready`; the caller kills it. */
export async function startKiln(cmd: string[], env: Record<string, string>, ready: RegExp, cwd = ROOT): Promise<{ proc: Subprocess<"ignore", "pipe", "pipe">; output: () => string; match: RegExpExecArray }> {
  // A run recording the executable's bytecode order (scripts/record-bytecode-order.ts) passes its file on.
  const recording = process.env.BUN_BYTECODE_ORDER_OUT ? { BUN_BYTECODE_ORDER_OUT: process.env.BUN_BYTECODE_ORDER_OUT } : {};
  const proc = Bun.spawn(cmd, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...recording, ...env }, stdout: "pipe", stderr: "pipe" });
  const output = collectOutput(proc);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = ready.exec(output());
    if (match) return { proc, output, match };
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error(`kiln did not become ready:\n${output()}`);
}

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}
