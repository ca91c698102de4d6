// Whether the tree still repeats real logic: `bun scripts/duplicates.ts` runs the `duplicates`
// tool over the checkout (when it is on PATH; CI machines do not have it, and then this says so
// and passes) and fails, listing them, on the pairs of places that are neither marked boilerplate
// by the tool nor accepted in scripts/duplicates-accepted.txt (docs/architecture.md, Duplicates).
// A pair the tool could not see (it ran out of time, or cut its list) fails too: a clean answer
// must have looked at everything.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const ACCEPTED = join(import.meta.dir, "duplicates-accepted.txt");
export const TOOL_ARGS = ["--most", "200", "--seconds", "120"];

/** One row of the tool's answer: two places that share lines. */
export interface DuplicatePair {
  /** the row as the tool printed it */
  row: string;
  a: string;
  b: string;
  boilerplate: boolean;
}

/** An entry of the accepted list: two files (a `*` stands for any characters but "/"), and why. */
export interface AcceptedEntry {
  a: string;
  b: string;
  why: string;
  line: number;
}

/** What the tool answered: its pairs, and anything that says the answer is not whole. */
export function parseAnswer(text: string): { pairs: DuplicatePair[]; notWhole: string[] } {
  const pairs: DuplicatePair[] = [];
  const notWhole: string[] = [];
  for (const row of text.split("\n")) {
    const match = /^D\d+ (\S+):\d+-\d+ ~ (\S+):\d+-\d+( .*)?$/.exec(row);
    if (match) pairs.push({ row, a: match[1]!, b: match[2]!, boilerplate: /\bboilerplate\b/.test(match[3] ?? "") });
    else if (row.startsWith("incomplete:") || /^\(\+\d+ more pairs\)/.test(row)) notWhole.push(row);
  }
  return { pairs, notWhole };
}

/** The accepted list's entries; a line that is not `fileA ~ fileB  # why` is an error, not skipped. */
export function parseAccepted(text: string): { entries: AcceptedEntry[]; errors: string[] } {
  const entries: AcceptedEntry[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^(\S+) ~ (\S+)\s+#\s*(\S.*)$/.exec(line);
    if (!match) errors.push(`line ${i + 1}: not "fileA ~ fileB  # why it is accepted": ${line}`);
    else if (/:\d/.test(match[1]! + match[2]!)) errors.push(`line ${i + 1}: files without line numbers (they move with every edit): ${line}`);
    else entries.push({ a: match[1]!, b: match[2]!, why: match[3]!, line: i + 1 });
  });
  return { entries, errors };
}

const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`).test(path);

/** Whether an entry covers a pair, either way round. */
export function covers(entry: AcceptedEntry, pair: DuplicatePair): boolean {
  return (matches(entry.a, pair.a) && matches(entry.b, pair.b)) || (matches(entry.a, pair.b) && matches(entry.b, pair.a));
}

/** The pairs still to look at, and the entries that no longer cover any pair (to be removed). */
export function judge(pairs: DuplicatePair[], entries: AcceptedEntry[]): { open: DuplicatePair[]; unused: AcceptedEntry[] } {
  const open = pairs.filter((pair) => !pair.boilerplate && !entries.some((entry) => covers(entry, pair)));
  const unused = entries.filter((entry) => !pairs.some((pair) => covers(entry, pair)));
  return { open, unused };
}

if (import.meta.main) {
  const tool = Bun.which("duplicates");
  if (!tool) {
    console.log("duplicates: the `duplicates` tool is not on PATH here, so nothing was checked.");
    process.exit(0);
  }
  const run = Bun.spawnSync([tool, ...TOOL_ARGS], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const answer = run.stdout.toString();
  const { pairs, notWhole } = parseAnswer(answer);
  const { entries, errors } = parseAccepted(readFileSync(ACCEPTED, "utf8"));
  const { open, unused } = judge(pairs, entries);
  console.log(answer.split("\n")[0]);
  for (const error of errors) console.log(`scripts/duplicates-accepted.txt ${error}`);
  for (const line of notWhole) console.log(`not whole: ${line}`);
  if (open.length > 0) {
    console.log(`\n${open.length} pair(s) repeat logic: make both places use one piece of code, or, where the pair is boilerplate, add it to scripts/duplicates-accepted.txt with why:`);
    for (const pair of open) console.log(`  ${pair.row}`);
  }
  if (unused.length > 0) {
    console.log("\naccepted entries that cover no pair any more (remove them):");
    for (const entry of unused) console.log(`  line ${entry.line}: ${entry.a} ~ ${entry.b}`);
  }
  const failed = open.length > 0 || errors.length > 0 || notWhole.length > 0 || run.exitCode !== 0;
  if (!failed) console.log(`no pair of real logic: ${pairs.length} pairs, each marked boilerplate or accepted.`);
  process.exit(failed ? 1 : 0);
}
