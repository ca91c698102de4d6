// bench/backups: a server folder of 1 GB of mixed files (4 MiB region files of random bytes,
// compressible logs, thousands of small configs), as a game world is, backed up by a node with
// restic, against `tar czf` of the same folder; then 1% of it changed and backed up again: its
// time and how much the repository grew. The change is measured two ways: whole region files
// rewritten (1% of the bytes, in whole files), and 1 MiB rewritten inside each of ten region files
// (1% of the bytes, scattered), which costs restic more: it re-reads each changed file and stores
// the content-defined chunks (0.5 to 8 MiB) around each change. Budget: the second
// backup under 10% of the first's time, the growth under 2% of the folder's size. A backup with
// nothing changed is timed too: it is the floor of any backup's time, whatever the size of the
// change (restic opens the repository, loads its index, walks the tree and writes a snapshot; the
// own-disk repository's key is a light one, daemon/backups/light-key).
// The node is a real `kiln daemon` process (the checkout, or KILN_BENCH_EXE=dist/kiln).
//   bun bench/backups.ts [megabytes=1024]
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate } from "../test/helpers/node";
import { tempDir } from "../test/helpers/process";
import { readRss, startDaemon } from "./lib/daemon";
import { kilnLabel } from "./lib/kiln";
import { machine, mb, pct, table, verdict } from "./lib/figures";

const MEGABYTES = Number(process.argv[2] ?? 1024);
const MIB = 1024 * 1024;

const REGION = 4 * MIB;

/** 60% random (4 MiB region files), 30% text that compresses, 10% in 5,000 small files. */
function writeMixedFolder(dir: string): number {
  mkdirSync(join(dir, "world", "region"), { recursive: true });
  mkdirSync(join(dir, "logs"), { recursive: true });
  mkdirSync(join(dir, "config"), { recursive: true });
  const total = MEGABYTES * MIB;
  const regionFiles = Math.floor((total * 0.6) / REGION);
  for (let i = 0; i < regionFiles; i++) writeFileSync(join(dir, "world", "region", `r.${i}.mca`), randomBytes(REGION));
  const line = (i: number) => `[12:${String(i % 60).padStart(2, "0")}:00] [Server thread/INFO]: player${i % 97} moved to ${i * 7 % 1000}, ${i % 64}, ${i * 13 % 1000}\n`;
  for (let f = 0; f < 8; f++) {
    const fd = openSync(join(dir, "logs", `log-${f}.txt`), "w");
    let written = 0;
    for (let i = 0; written < (total * 0.3) / 8; i++) {
      const chunk = Buffer.from(Array.from({ length: 1000 }, (_, k) => line(i * 1000 + k + f)).join(""));
      writeSync(fd, chunk);
      written += chunk.length;
    }
    closeSync(fd);
  }
  const small = Math.floor((total * 0.1) / 5000);
  for (let i = 0; i < 5000; i++) writeFileSync(join(dir, "config", `c${i}.json`), randomBytes(small));
  return total;
}

/** 1% of the folder in whole region files, rewritten (rounded up to whole files). */
function rewriteWholeFiles(dir: string): void {
  const files = Math.ceil((MEGABYTES * MIB) / 100 / REGION);
  for (let i = 0; i < files; i++) writeFileSync(join(dir, "world", "region", `r.${i}.mca`), randomBytes(REGION));
}

/** 1% of the folder scattered: a tenth of it rewritten in the middle of each of ten other region files. */
function rewriteInsideFiles(dir: string): void {
  const piece = Math.floor((MEGABYTES * MIB) / 100 / 10);
  for (let i = 0; i < 10; i++) {
    const fd = openSync(join(dir, "world", "region", `r.${20 + i * 3}.mca`), "r+");
    writeSync(fd, randomBytes(piece), 0, piece, MIB);
    closeSync(fd);
  }
}

const du = (path: string) => Number(new TextDecoder().decode(Bun.spawnSync(["du", "-sb", path]).stdout).split("\t")[0]);
const timed = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

const t = await startDaemon();
const out = tempDir("kiln-bench-tar-");
try {
  expect201(await t.call("PUT", "/daemon/server/bench", echoTemplate()));
  const folder = join(t.dataDir, "servers", "bench");
  const size = writeMixedFolder(folder);
  const repo = join(t.dataDir, "backups", "local");
  const tarSeconds = await timed(async () => {
    const tar = Bun.spawn(["tar", "czf", join(out, "folder.tar.gz"), "-C", folder, "."], { stdout: "ignore", stderr: "inherit" });
    if ((await tar.exited) !== 0) throw new Error("tar failed");
  });
  // The repository is made by the first call; its creation is not the backup's time.
  await t.json("GET", "/daemon/server/bench/backups");
  const empty = du(repo);
  const first = await timed(() => backup());
  const unchanged = await timed(() => backup());
  const afterFirst = du(repo);
  rewriteWholeFiles(folder);
  const second = await timed(() => backup());
  const growth = du(repo) - afterFirst;
  const afterSecond = du(repo);
  rewriteInsideFiles(folder);
  const third = await timed(() => backup());
  const scatteredGrowth = du(repo) - afterSecond;
  // The newest backup downloaded as tar.gz (read to the end, not kept): its time, and how much the
  // node's memory (the daemon process's RSS) grew meanwhile, which must stay flat whatever the size.
  const { backups } = await t.json("GET", "/daemon/server/bench/backups");
  const rssBefore = readRss(t.pid).rss;
  let rssPeak = rssBefore;
  let downloaded = 0;
  const downloadSeconds = await timed(async () => {
    const response = await t.call("GET", `/daemon/server/bench/backups/${backups[0].id}/download?format=tar.gz`);
    for await (const chunk of response.body!) {
      downloaded += chunk.length;
      rssPeak = Math.max(rssPeak, readRss(t.pid).rss);
    }
  });
  console.log(`backups, ${MEGABYTES} MiB mixed folder (${machine()}; ${kilnLabel()})`);
  table(
    ["figure", "value", "budget"],
    [
      ["tar czf of the folder", `${tarSeconds.toFixed(1)} s (${mb(du(join(out, "folder.tar.gz")))})`, ""],
      ["first backup", `${first.toFixed(1)} s (repository ${mb(afterFirst - empty)})`, ""],
      ["next backup, nothing changed (the fixed cost)", `${unchanged.toFixed(1)} s = ${pct((unchanged / first) * 100)} of the first`, ""],
      ["next backup, 1% changed in whole files", `${second.toFixed(1)} s = ${pct((second / first) * 100)} of the first`, `< 10 % ${verdict(second / first, 0.1, 0.05)}`],
      ["repository growth", `${mb(growth)} = ${((growth / size) * 100).toFixed(2)} % of the folder`, `< 2 % ${verdict(growth / size, 0.02, 0.015)}`],
      ["next backup, 1% changed inside ten files", `${third.toFixed(1)} s = ${pct((third / first) * 100)} of the first`, `< 10 % ${verdict(third / first, 0.1, 0.05)}`],
      ["repository growth", `${mb(scatteredGrowth)} = ${((scatteredGrowth / size) * 100).toFixed(2)} % of the folder`, `< 2 % ${verdict(scatteredGrowth / size, 0.02, 0.015)}`],
      ["download as tar.gz", `${downloadSeconds.toFixed(1)} s (${mb(downloaded)}); the node's memory grew ${mb(rssPeak - rssBefore)}`, "flat"],
    ],
  );
} finally {
  // Stopping removes the data folder: a gigabyte or three of folder and repository is not left behind.
  await t.stop();
  rmSync(out, { recursive: true, force: true });
}

async function backup(): Promise<void> {
  const response = await t.call("POST", "/daemon/server/bench/backups?wait=true");
  if (response.status !== 201) throw new Error(`backup failed: ${response.status} ${await response.text()}`);
}

function expect201(response: Response): void {
  if (response.status !== 201) throw new Error(`could not create the server: ${response.status}`);
}
