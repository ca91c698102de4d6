// Runs `kiln` as a real process from the source tree (bun server/main.ts).
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Subprocess } from "bun";

export const ROOT = join(import.meta.dir, "..", "..");
export const KILN = [process.execPath, join(ROOT, "server", "main.ts")];

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
  let text = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk);
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = ready.exec(text);
    if (match) return { proc, output: () => text, match };
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  proc.kill();
  throw new Error(`kiln did not become ready:\n${text}`);
}

export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}
