// Which kiln the process benchmarks run: the checkout (bun server/main.ts) by default, or the
// built executable when KILN_BENCH_EXE names it (`npm run build` makes dist/kiln), which is what
// users really run: its bundles are embedded instead of built at start, its code is one minified
// file instead of modules read from node_modules.
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

/** Says what ran, for the figures' header: "kiln: dist/kiln" or "kiln: checkout (bun server/main.ts)". */
export function kilnLabel(): string {
  if (!KILN_EXE) return "kiln: checkout (bun server/main.ts)";
  const rel = relative(ROOT, KILN_EXE);
  return `kiln: executable ${rel.startsWith("..") ? KILN_EXE : rel}`;
}
