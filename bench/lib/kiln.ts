// Which kiln the process benchmarks run: the checkout (bun server/main.ts) by default, or the
// built executable when KILN_BENCH_EXE names it (`npm run build` makes dist/kiln), which is what
// users really run: its bundles are embedded instead of built at start, its code is one minified
// file instead of modules read from node_modules. KILN_BENCH_LOCAL_NODE=process has the panel
// benches run the panel's local node in a process of its own (KILN_LOCAL_NODE=process).
//   KILN_BENCH_EXE=dist/kiln bun bench/daemon-idle.ts
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { KILN, ROOT } from "../../test/helpers/process";

/** The executable's absolute path (relative to the working directory when given so), or null for the checkout. */
export const KILN_EXE: string | null = (() => {
  const given = process.env.KILN_BENCH_EXE;
  if (!given) return null;
  const path = resolve(process.cwd(), given);
  if (!existsSync(path)) throw new Error(`KILN_BENCH_EXE: no file at ${path} (npm run build makes dist/kiln)`);
  return path;
})();

/** The argv that starts `kiln <command>` from the checkout or the executable. */
export function kilnCommand(command: "panel" | "daemon"): string[] {
  return KILN_EXE ? [KILN_EXE, command] : [...KILN, command];
}

/** Whether the panel's local node runs in a process of its own in this run. */
export const NODE_PROCESS = process.env.KILN_BENCH_LOCAL_NODE === "process";

/** The panel's environment for where its local node runs. */
export const localNodeEnv = (): Record<string, string> => (NODE_PROCESS ? { KILN_LOCAL_NODE: "process" } : {});

/** The local node's own process in the panel's output ("local node listening on … (process N)"), else none. */
export function nodeProcessIn(output: string): number[] {
  const pid = /local node listening on \S+ \(process (\d+)\)/.exec(output)?.[1];
  return pid ? [Number(pid)] : [];
}

/** Says what ran, for the figures' header: "kiln: dist/kiln" or "kiln: checkout (bun server/main.ts)". */
export function kilnLabel(): string {
  const node = NODE_PROCESS ? ", the local node in its own process" : "";
  if (!KILN_EXE) return `kiln: checkout (bun server/main.ts)${node}`;
  const rel = relative(ROOT, KILN_EXE);
  return `kiln: executable ${rel.startsWith("..") ? KILN_EXE : rel}${node}`;
}
