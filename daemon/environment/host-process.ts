// What the standard and tty environments share: the environment a host process gets, reading a
// pipe with backpressure, and resolving its working directory inside the server's folder.
import { delimiter } from "node:path";
import { makeFolder } from "../files/operations";
import { KilnError } from "../../core/errors";
import { Jail } from "../files/jail";
import type { OutputSink, ExitInfo, RunSpec } from "./types";
import { behindRootStages, sandboxed, sandboxExit, systemProgram, type Isolation, type SpawnTarget } from "./sandbox";
import type { ServerUser } from "./server-user";
import { limited, type ServerLimits } from "./host-limits";
import { carryPastWrappers } from "./carried-env";
import { limitBytes } from "../../core/definition";

export interface HostOptions {
  serverDir: string;
  /** Prepended to PATH so tools that steps installed (java17, steamcmd) are found. */
  binPath: string;
  /** What the node can do to fence its servers in, decided when it started. */
  isolation: Isolation;
  /** The server's own user when the node runs as root; null: the node's user. */
  user: ServerUser | null;
  /** Holds the server's processes to its limits (absent: no limits). */
  limits?: ServerLimits;
  /** The server's own network namespace, made on first need (absent: it shares the node's network). */
  network?: { ensure(): Promise<string> };
}

/**
 * The spawn of a server's process: its clean environment, its folder, inside the sandbox, in its
 * network namespace (`netns`, a path for nsenter) when it has one.
 */
export function hostSpawn(options: HostOptions, spec: RunSpec, terminal: boolean, netns?: string): SpawnTarget {
  const { isolation } = options;
  if (isolation.mode === "required" && isolation.network && !isolation.network.available && !netns) {
    throw new KilnError("ErrIsolationUnavailable", undefined, `isolation is required but ${isolation.network.reason}`);
  }
  const env = hostEnv(options, spec.env);
  const cwd = workingDir(options.serverDir, spec.workingDirectory, options.user);
  // Looked up here, where a missing program can still be told apart: inside the sandbox it would
  // only be an exit code. The sandbox shows the same paths, so the answer holds there too.
  const program = spec.argv[0] ?? "";
  if (!Bun.which(program, { PATH: env.PATH, cwd })) throw spawnError(spec.argv, new Error(`${program}: not found`));
  const tmpBytes = limitBytes(options.limits?.current(), "memoryMiB") ?? undefined;
  // Loader and PATH-like variables reach the command only. With a server user the sandbox's drop
  // to it (env -i after setpriv) keeps them from the root stages; without one (a node not run as
  // root) nothing drops, and bubblewrap, run as the node's user, would load them.
  const carried = options.user === null ? carryPastWrappers(spec.argv, env, hostEnv(options, {})) : { argv: spec.argv, env };
  const target = sandboxed(carried.argv, terminal ? { TERM: "xterm-256color", ...carried.env } : carried.env, cwd, { serverDir: options.serverDir, user: options.user, tmpBytes }, options.isolation, terminal);
  const held = options.limits ? limited(target, options.limits, options.user !== null) : target;
  return netns ? behindRootStages(held, [systemProgram("nsenter"), `--net=${netns}`, "--"]) : held;
}

/** Bun's spawn options for a target: the user to switch to when no sandbox does it. */
export function spawnUser(target: SpawnTarget): { uid?: number; gid?: number } {
  return target.uid === undefined ? {} : { uid: target.uid, gid: target.gid };
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

/**
 * The process's folder inside the server's folder, created when a template names a new one (and
 * then the server's user's, so the server can write in it).
 */
export function workingDir(serverDir: string, relative: string, user: ServerUser | null = null): string {
  if (!relative) return serverDir;
  const jail = new Jail(serverDir);
  jail.owner = user;
  makeFolder(jail, relative);
  return jail.resolve(relative);
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

/** `wrappers`: the sandbox's processes stood between, and report a signal as exit code 128 + N. */
export function exitInfo(code: number | null, signal: NodeJS.Signals | number | null | undefined, wrappers = 0): ExitInfo {
  return sandboxExit(signal ? null : code, signal ? String(signal) : null, wrappers);
}

/** Spawning fails before any process exists when the program is not there. */
export function spawnError(argv: string[], error: unknown): KilnError {
  const message = (error as Error)?.message ?? String(error);
  if (/ENOENT|No such file|not found/i.test(message)) return new KilnError("ErrMissingBinary", { expected: [argv[0] ?? ""] }, `cannot run ${argv[0]}: ${message}`);
  return new KilnError("ErrGeneric", undefined, `cannot run ${argv[0]}: ${message}`);
}
