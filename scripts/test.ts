// npm test's runner: the executable built once, then every test file through `bun test` in
// parallel worker processes, the slowest files started first (test/timings.json, the durations a
// run measured, committed), and the few files that measure the machine (or wait on it) alone after them; then the
// ten slowest files, every failed test again, then the panel's service and route tests once more
// on PostgreSQL (when KILN_TEST_POSTGRES_URL names a server: .ci/run starts one; their failed
// files again too), and bun's summary lines added up over the runs.
// A file with a failed test is run once more, alone, after all that: a test that then passes is
// named as load-sensitive (it missed a fixed wait while other files held the cores) and counted
// from its second run; a test that fails alone too is a failure.
//   bun scripts/test.ts [bun test arguments…]
// KILN_TEST_WORKERS: how many files run at once (default 2: on a 2-core machine a third worker
// made no run faster and made timing-sensitive tests fail; docs/benchmarks.md, "Tests").
// Refresh the committed durations after adding slow tests: KILN_TEST_TIMINGS_UPDATE=1 npm test.
import { tmpdir } from "node:os";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const COMMITTED = join(ROOT, "test", "timings.json");
const measured = join(tmpdir(), `kiln-test-timings-${process.pid}.json`);
await Bun.write(measured, JSON.stringify({ version: 1, files: {} }));

const workers = Number(process.env.KILN_TEST_WORKERS) || 2;

// The executable users run, built once (build.ts): tests that start kiln run it rather than the
// source tree, so no start builds the browser bundles again (test/helpers/process.ts).
const exeDir = join(tmpdir(), `kiln-test-exe-${process.pid}`);
const exe = join(exeDir, "kiln");
const build = Bun.spawnSync([process.execPath, join(ROOT, "build.ts"), "--outfile", exe], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
// Its browser bundles too, copied where no later build rewrites them: the panels tests start in
// their own process serve these rather than bundling the islands again (test/helpers/app.ts).
const bundleDir = join(exeDir, "bundle");
cpSync(join(ROOT, "dist", "gen", "bundle"), bundleDir, { recursive: true });
// The first --timings file receives this run's durations; the committed one only orders the files.
const timings = [`--timings=${measured}`, ...(existsSync(COMMITTED) ? [`--timings=${COMMITTED}`] : []), "--update-timings"];
// Every test file's temporary folders (nodes' data, archives, clients' folders, browsers'
// profiles: tens of thousands a run, some of them large) go in one folder of this run's, removed
// at its end: left in the system's, they filled a VM's disk after a few dozen runs.
const scratch = mkdtempSync(join(tmpdir(), "kiln-test-tmp-"));
// As the system's is: servers run as users of their own read and write below it.
chmodSync(scratch, 0o1777);
const env = { ...process.env, KILN_TEST_EXE: exe, KILN_TEST_BUNDLE: bundleDir, TMPDIR: scratch };
// Every PostgreSQL test of this run works in a database of its own, dropped at the end: the
// server's catalogue does not grow run after run (a test panel makes a schema of its own in it).
const postgresServer = process.env.KILN_TEST_POSTGRES_URL;
const runDatabase = postgresServer ? await makeRunDatabase(postgresServer) : undefined;
if (runDatabase) env.KILN_TEST_POSTGRES_URL = runDatabase.url;
const given = process.argv.slice(2);

/**
 * Files that measure the machine (a process's memory, how fast something answers) run after the
 * others, alone: two files at once on two cores doubled what the stalled-socket test measured.
 */
const ALONE = [
  "test/security/socket-limits.test.ts",
  "test/security/socket-revocation.test.ts",
  "test/security/user-patterns.test.ts",
  "test/security/task-triggers.test.ts",
  "test/security/eggs.test.ts",
  "core/patterns/user-pattern.test.ts",
];

/** bun's summary lines of each run, to be added up at the end. */
const summaries: string[][] = [];
/** The files this run ran: bun heads each file's results with its path. */
const ran = new Set<string>();
/** Every failed test's line, said again at the end (a CI log is often read from its end). */
let failed = new Set<string>();
/** Per file, the outcome lines of its tests ("(pass) …", "(fail) …"; timings cut off). */
const outcomes = new Map<string, string[]>();
/** More failed files than this is a break, not load: running them again would only add minutes. */
const AGAIN_MAX_FILES = 10;
let code = 0;
if (given.some((arg) => !arg.startsWith("-"))) {
  // Files or filters named on the command line: one run of exactly those, as bun test would.
  code = await runBun(["test", `--parallel=${workers}`, ...timings, "--timeout", "30000", ...given]);
} else {
  const files = [...new Bun.Glob("**/*.test.{ts,tsx}").scanSync({ cwd: ROOT })].filter((file) => !file.startsWith("node_modules/")).sort();
  const pool = files.filter((file) => !ALONE.includes(file));
  code = await runBun(["test", `--parallel=${workers}`, "--no-isolate", ...timings, "--timeout", "30000", ...given, ...pool.map((file) => `./${file}`)]);
  const alone = files.filter((file) => ALONE.includes(file));
  const aloneCode = await runBun(["test", `--timings=${measured}`, "--update-timings", "--timeout", "30000", ...given, ...alone.map((file) => `./${file}`)]);
  code ||= aloneCode;
}
code = await runFailedAgain(code);
if (!given.some((arg) => !arg.startsWith("-"))) code = (await runOnPostgres()) || code;

/**
 * The panel's service tests and the route tests that drive an in-process panel (no node, no
 * browser), and the kill -9 loop, again with every panel's data in PostgreSQL: each test panel
 * gets a schema of its own there (test/helpers/database).
 */
async function runOnPostgres(): Promise<number> {
  if (!runDatabase) {
    if (process.env.KILN_REQUIRE_ALL !== "1") return 0;
    console.error("\nKILN_TEST_POSTGRES_URL is not set, and KILN_REQUIRE_ALL=1 requires the PostgreSQL pass (.ci/run starts a server)");
    return 1;
  }
  const all = [...new Bun.Glob("**/*.test.{ts,tsx}").scanSync({ cwd: ROOT })].filter((file) => file.startsWith("server/services/") || file.startsWith("test/")).sort();
  const panelOnly = (file: string) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    // A file that starts panel processes chose its database itself (the cluster tests: PostgreSQL already).
    return /helpers\/(app|database)"/.test(text) && !/helpers\/(browser|browser-panel|node|panel-node|process|panel-process|docker|sftp|sshd)"/.test(text);
  };
  const files = all.filter((file) => !file.startsWith("test/postgres/") && (file.startsWith("server/services/") || panelOnly(file) || file === "test/security/crash-durability.test.ts"));
  // No file named would make bun run every test file.
  if (files.length === 0) throw new Error("no panel test files found for the PostgreSQL pass");
  console.error(`\nthe panel's ${files.length} service and route test files again, on PostgreSQL:`);
  const before = env.KILN_TEST_ON_POSTGRES;
  env.KILN_TEST_ON_POSTGRES = "1";
  // This pass's files are judged as the first pass's are: one with a failed test runs again alone,
  // on PostgreSQL too (their first pass's outcomes were already counted).
  outcomes.clear();
  try {
    return await runFailedAgain(await runBun(["test", `--parallel=${workers}`, "--no-isolate", "--timeout", "30000", ...given, ...files.map((file) => `./${file}`)]));
  } finally {
    env.KILN_TEST_ON_POSTGRES = before;
  }
}

/**
 * The files with a failed test (or an error between their tests), run once more one after another;
 * their first run's outcomes are replaced by the second's in the summary. The exit code is the
 * second run's only when every failure and error of the first runs belonged to those files.
 */
async function runFailedAgain(firstCode: number): Promise<number> {
  const failing = [...outcomes].filter(([, lines]) => lines.some((line) => line.startsWith("(fail)") || line.startsWith("(error)"))).map(([file]) => file);
  if (failing.length === 0 || failing.length > AGAIN_MAX_FILES) return firstCode;
  const first = new Map(failing.map((file) => [file, outcomes.get(file)!]));
  const firstFailed = failed;
  const firstTotal = addUp(summaries);
  const count = (outcome: string) => [...first.values()].flat().filter((line) => line.startsWith(`(${outcome})`)).length;
  const totalOf = (what: string) => Number(new RegExp(`^ (\\d+) ${what}$`).exec(firstTotal.find((line) => line.endsWith(` ${what}`)) ?? "")?.[1] ?? 0);
  const explained = totalOf("fail") === count("fail") && totalOf("error") === count("error");
  console.error(`\nrunning again, alone, the ${failing.length} files with a failed test:`);
  failed = new Set();
  for (const file of failing) outcomes.delete(file);
  // Only the options given (written --name=value) go again: the files are these.
  const againCode = await runBun(["test", "--timeout", "30000", ...given.filter((arg) => arg.startsWith("-")), ...failing.map((file) => `./${file}`)]);
  const again = summaries.pop()!;
  const key = (line: string) => line.replace(/ \[[\d.]+m?s\]$/, "");
  const passedAgain = [...firstFailed].filter((line) => !failed.has(line) && [...outcomes.values()].flat().includes(key(line).replace(/^\(fail\)/, "(pass)")));
  failed = new Set(new Map([...firstFailed, ...failed].filter((line) => !passedAgain.includes(line)).map((line) => [key(line), line])).values());
  if (passedAgain.length > 0) console.error(`\n${passedAgain.length} tests failed beside other files and passed alone (load-sensitive):\n${passedAgain.join("\n")}`);
  // The first runs' figures without those files' tests and errors, plus the second run's.
  const tests = [...first.values()].flat().filter((line) => !line.startsWith("(error)")).length;
  summaries.push([` ${-count("pass")} pass`, ` ${-count("fail")} fail`, ` ${-count("error")} error`, ` ${-count("skip")} skip`, ` ${-count("todo")} todo`, `Ran ${-tests} tests across 0 files. [0s]`]);
  summaries.push(again.map((line) => line.replace(/across \d+ files?/, "across 0 files")));
  return explained ? againCode : firstCode;
}

async function runBun(args: string[]): Promise<number> {
  const run = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env });
  /** bun writes its summary last. */
  let tail: string[] = [];
  async function relay(stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream): Promise<void> {
    const decoder = new TextDecoder();
    let partial = "";
    /** The file whose results bun is writing: it heads them with the file's path. */
    let file: string | null = null;
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      out.write(text);
      partial += text;
      const lines = partial.split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        if (/^\S+\.test\.tsx?:$/.test(line)) {
          file = line.slice(0, -1);
          ran.add(file);
          // In parallel bun heads every switch between files again: a file's lines add up.
          if (!outcomes.has(file)) outcomes.set(file, []);
        }
        // bun's own list of the failed tests at the end of a run belongs to no file.
        if (/^\d+ tests? failed:$/.test(line)) file = null;
        if (file && /^\((pass|fail|skip|todo)\) /.test(line)) outcomes.get(file)!.push(line.replace(/ \[[\d.]+m?s\]$/, ""));
        // An error outside any test (a timed-out test's promise going on, say) is its file's.
        if (file && line === "# Unhandled error between tests") outcomes.get(file)!.push("(error) between tests");
        if (line.startsWith("(fail) ")) failed.add(line);
      }
      tail = [...tail, ...lines].slice(-12);
    }
  }
  await Promise.all([relay(run.stdout, process.stdout), relay(run.stderr, process.stderr)]);
  const start = tail.findIndex((line) => /^\s*\d+ pass$/.test(line));
  summaries.push(start >= 0 ? tail.slice(start) : []);
  return await run.exited;
}

// bun writes every duration it knows there (this run's, and the committed ones of files not run).
const files = Object.entries((JSON.parse(readFileSync(measured, "utf8")) as { files: Record<string, number> }).files)
  .filter(([file]) => ran.has(file))
  .sort((a, b) => b[1] - a[1]);
if (files.length > 0) {
  console.error(`\nslowest test files (of ${files.length}, ${workers} at once):`);
  for (const [file, ms] of files.slice(0, 10)) console.error(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
  if (process.env.KILN_TEST_TIMINGS_UPDATE === "1") copyFileSync(measured, COMMITTED);
}
// The runs' summaries added up in bun's words, so the output ends with the runner's own summary.
if (failed.size > 0) console.error(`\n${failed.size} tests failed:\n${[...failed].join("\n")}`);
console.error(`\n${addUp(summaries).join("\n")}`);
await runDatabase?.drop();
// The executable is over 100 MB: one left behind by every run would fill a small disk.
rmSync(exeDir, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });
rmSync(measured, { force: true });
process.exit(code);

/** Adds up bun's summary lines (" 12 pass", " 0 fail", " 40 expect() calls", "Ran 12 tests across 3 files. [4.00s]"). */
function addUp(runs: string[][]): string[] {
  const counts = new Map<string, number>();
  let tests = 0;
  let files = 0;
  let seconds = 0;
  for (const line of runs.flat()) {
    const ran = /^Ran (-?\d+) tests? across (\d+) files?\. \[([\d.]+)(ms|s)\]$/.exec(line.trim());
    if (ran) {
      tests += Number(ran[1]);
      files += Number(ran[2]);
      seconds += Number(ran[3]) / (ran[4] === "ms" ? 1000 : 1);
      continue;
    }
    const count = /^(-?\d+) (.+)$/.exec(line.trim());
    // bun writes "1 error", "2 errors": one count.
    const what = count?.[2] === "errors" ? "error" : count?.[2];
    if (count && what) counts.set(what, (counts.get(what) ?? 0) + Number(count[1]));
  }
  // bun names errors, skipped and todo tests only when there are some.
  const shown = [...counts].filter(([what, n]) => n !== 0 || what === "pass" || what === "fail");
  return [...shown.map(([what, n]) => ` ${n} ${what === "error" && n !== 1 ? "errors" : what}`), `Ran ${tests} tests across ${files} file${files === 1 ? "" : "s"}. [${seconds.toFixed(2)}s]`];
}

/** A database for this run's PostgreSQL tests on the server `server` names. */
async function makeRunDatabase(server: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const name = `kiln_test_run_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name}`);
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`).catch(() => undefined) };
}
