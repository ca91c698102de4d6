// bench/user-patterns: what a user-supplied pattern can cost on RE2's engine (core/patterns). The
// engine is linear in the text, times the compiled program; the shapes below are the costliest
// found at or under the program bound (MAX_PROGRAM_SIZE), run on a one-line value's most (4096
// characters) and a multi-line value's or a console line's (64 KiB). Each figure is the best of
// three runs, in milliseconds; JavaScript's own engine on the first row takes hours at 4096.
//   bun bench/user-patterns.ts
import { compilePattern, MAX_PROGRAM_SIZE } from "../core/patterns";

const SHAPES = ["^\\w*\\w*\\w*\\w*$", "(a+)+$", "(.*a){50}", "(\\w*){60}", "(?:.*\\p{L}){80}", "\\w{250}", "[\\p{L}\\p{N}]{250}", "^[0-9]{1,100}$", "(^|\\n)cluster_name[ \\t]*=[^\\r\\n]*"];
const TEXTS: Array<[string, (n: number) => string]> = [
  ["a…a!", (n) => `${"a".repeat(n - 1)}!`],
  ["mixed", (n) => Array.from({ length: n }, (_, i) => "aé1_ -"[i % 6]).join("")],
];

function best(run: () => unknown): number {
  let fastest = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

console.log(`program bound: ${MAX_PROGRAM_SIZE} steps`);
console.log(["pattern".padEnd(22), "test 4 KiB", "test 64 KiB", "replace 4 KiB", "replace 64 KiB"].join("  "));
for (const source of SHAPES) {
  const pattern = compilePattern(source);
  const worst = (length: number, replace: boolean) => Math.max(...TEXTS.map(([, make]) => make(length)).map((text) => best(() => (replace ? pattern.replaceAll(text, "x") : pattern.test(text)))));
  const cells = [worst(4096, false), worst(65536, false), worst(4096, true), worst(65536, true)].map((ms) => ms.toFixed(1).padStart(10));
  console.log([source.padEnd(22), ...cells].join("  "));
}
