// What the standard and tty environments share: the environment a host process gets, reading a
// pipe with backpressure, and resolving its working directory inside the server's folder.
import { delimiter } from "node:path";
import { mkdirSync } from "node:fs";
import { KilnError } from "../../core/errors";
import { Jail } from "../files/jail";
import type { OutputSink, ExitInfo } from "./types";

export interface HostOptions {
  serverDir: string;
  /** Prepended to PATH so tools that steps installed (java17, steamcmd) are found. */
  binPath: string;
}

/**
 * The variables a server process starts with. Deliberately not the daemon's own environment:
 * that holds the node secret, which a game server must never be able to read.
 */
export function hostEnv(options: HostOptions, extra: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {
    PATH: [options.binPath, process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin"].join(delimiter),
    HOME: options.serverDir,
    LANG: process.env.LANG ?? "C.UTF-8",
  };
  if (process.env.TZ) base.TZ = process.env.TZ;
  return { ...base, ...extra };
}

/** The process's folder inside the server's folder, created when a template names a new one. */
export function workingDir(serverDir: string, relative: string): string {
  const dir = relative ? new Jail(serverDir).resolve(relative) : serverDir;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Reads a stream into the sink, waiting whenever the sink asks for it. */
export async function pump(stream: ReadableStream<Uint8Array>, output: OutputSink): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const wait = output(value);
      if (wait) await wait;
    }
  } catch {
    // the process went away mid-read; its exit is reported separately
  } finally {
    reader.releaseLock();
  }
}

export function exitInfo(code: number | null, signal: NodeJS.Signals | number | null | undefined): ExitInfo {
  return { code: signal ? null : code, signal: signal ? String(signal) : null };
}

/** Spawning fails before any process exists when the program is not there. */
export function spawnError(argv: string[], error: unknown): KilnError {
  const message = (error as Error)?.message ?? String(error);
  if (/ENOENT|No such file|not found/i.test(message)) return new KilnError("ErrMissingBinary", { expected: [argv[0] ?? ""] }, `cannot run ${argv[0]}: ${message}`);
  return new KilnError("ErrGeneric", undefined, `cannot run ${argv[0]}: ${message}`);
}
