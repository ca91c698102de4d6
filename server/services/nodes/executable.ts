// The kiln executable the panel hands to new nodes, and where it comes from. The compiled kiln
// offers itself; a checkout offers dist/kiln once built; a checkout never built (npm start) builds
// it when first asked (`bun build.ts` in the checkout, as `npm run build` does, one build at a
// time), so the node page's one-line install works from a checkout too: its download waits for
// the build. An executable named by KILN_NODE_EXECUTABLE is offered as it is, never built.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { KilnError } from "../../../core/errors";

export type ExecutableState =
  | { kind: "ready"; path: string; size: number }
  /** the checkout's build runs now (or can start: the next ensure starts it) */
  | { kind: "building" }
  | { kind: "buildable" }
  | { kind: "failed"; reason: string }
  | { kind: "none" };

/** How long a build may take before it counts as failed. */
const BUILD_TIMEOUT_MS = 10 * 60_000;

export interface ExecutableSource {
  /** the executable offered: the running one, dist/kiln, or the operator's choice (may not exist yet) */
  executable: string | null;
  /** a checkout that can build `executable` (build.ts in it), null when the panel is compiled or the file was chosen */
  executableBuild: string | null;
}

interface Build {
  promise: Promise<string>;
  failed?: string;
}

/** One build per checkout in this process, whoever asks. */
const builds = new Map<string, Build>();

/** Where a checkout's build writes the executable it offers. */
export function checkoutExecutable(checkout: string): string {
  return join(checkout, "dist", "kiln");
}

export function executableState(source: ExecutableSource): ExecutableState {
  const path = source.executable;
  if (path && existsSync(path)) return { kind: "ready", path, size: statSync(path).size };
  if (!source.executableBuild) return { kind: "none" };
  const build = builds.get(source.executableBuild);
  if (!build) return { kind: "buildable" };
  return build.failed ? { kind: "failed", reason: build.failed } : { kind: "building" };
}

/**
 * The executable's path, built first when the checkout can build it and it is not there (an
 * ErrNoExecutable when it cannot be had). Resolves when it is ready.
 */
export function ensureExecutable(source: ExecutableSource, bun = process.execPath): Promise<string> {
  const state = executableState(source);
  if (state.kind === "ready") return Promise.resolve(state.path);
  if (state.kind === "none") return Promise.reject(new KilnError("ErrNoExecutable"));
  const checkout = source.executableBuild!;
  const running = builds.get(checkout);
  if (running) return running.promise;
  const build: Build = { promise: Promise.resolve("") };
  build.promise = runBuild(checkout, bun).catch((error: unknown) => {
    build.failed = error instanceof Error ? error.message : String(error);
    throw new KilnError("ErrNoExecutable", undefined, `building the kiln executable failed: ${build.failed}`);
  });
  // A caller that only starts the build does not wait for it; a failure is kept in the state.
  build.promise.catch(() => undefined);
  builds.set(checkout, build);
  return build.promise;
}

async function runBuild(checkout: string, bun: string): Promise<string> {
  const out = checkoutExecutable(checkout);
  const child = Bun.spawn([bun, join(checkout, "build.ts"), "--outfile", out], { cwd: checkout, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => child.kill(), BUILD_TIMEOUT_MS);
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text(), new Response(child.stdout).text()]).finally(() => clearTimeout(timer));
  if (code !== 0 || !existsSync(out)) {
    // Bun's own first error line says what failed; the lines after it name files on this machine.
    const said = stderr.split("\n").find((line) => line.startsWith("error:"))?.slice(0, 300);
    throw new Error(said || `bun build.ts ended with code ${code}`);
  }
  return out;
}
