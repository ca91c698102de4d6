// bench/files-throughput: upload and download of one large file through the panel's proxy to the
// local node (a real `kiln panel` process), each as a ratio to `cp` of the same file on the same
// disk (budget: at least 0.5, aim 0.8), plus how much the panel's peak memory grew (flat), and
// the time to list a folder of 10,000 files through the proxy.
//   bun bench/files-throughput.ts [megabytes=500]   (KILN_BENCH_EXE=dist/kiln for the executable)
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { kilnCommand, kilnLabel, localNodeEnv } from "./lib/kiln";
import { echoTemplate } from "../test/helpers/node";
import { machine, mb, median, ms, percentile, table } from "./lib/figures";
import { writeSampleFile } from "./lib/sample";

const MEGABYTES = Number(process.argv[2] ?? 500);
const LISTED_FILES = 10_000;
const ADMIN = { email: "admin@example.com", password: "a-long-password" };
const RUNS = 5;

const data = tempDir("kiln-bench-files-");
const port = await freePort();
const panel = await startKiln(kilnCommand("panel"), { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password, ...localNodeEnv() }, /local node listening on/);
const base = `http://127.0.0.1:${port}`;
try {
  const token = (await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()).session as string;
  const call = (method: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { method, ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const json = { "content-type": "application/json" };
  await call("PUT", "/api/templates/echo", { headers: json, body: JSON.stringify(echoTemplate()) });
  const nodeId = ((await (await call("GET", "/api/nodes")).json()) as Array<{ id: number }>)[0]!.id;
  const { id } = await (await call("POST", "/api/servers", { headers: json, body: JSON.stringify({ name: "bench files", node: nodeId, template: "echo", environment: { type: "standard" } }) })).json();
  const serverDir = join(data, "node", "servers", id);
  const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${panel.proc.pid}/status`, "utf8"))![1]) * 1024;

  const work = tempDir("kiln-bench-sample-");
  const sample = join(work, "sample.bin");
  writeSampleFile(sample, MEGABYTES);

  const curl = async (args: string[]) => {
    const proc = Bun.spawn(["curl", "-sS", "--fail", "-H", `authorization: Bearer ${token}`, ...args], { stdout: "ignore", stderr: "pipe" });
    if ((await proc.exited) !== 0) throw new Error(`curl failed: ${await new Response(proc.stderr).text()}`);
  };
  // Dirty pages from the previous run are written out first, so each timing starts alike.
  const timed = async (fn: () => Promise<unknown>) => {
    await Bun.spawn(["sync"]).exited;
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const cpTimes: number[] = [];
  const upTimes: number[] = [];
  const downTimes: number[] = [];
  const warm = new FormData();
  warm.append("file", new Blob(["warm"]), "warm.txt");
  await (await call("PUT", `/proxy/daemon/server/${id}/file/warm.txt`, { body: warm })).text();
  const rssBefore = peakRss();
  for (let run = 0; run < RUNS; run++) {
    cpTimes.push(await timed(async () => {
      const cp = Bun.spawn(["cp", sample, join(work, "copy.bin")]);
      if ((await cp.exited) !== 0) throw new Error("cp failed");
    }));
    // curl stands in for the browser: Bun's own fetch is slow at sending a file as a request body,
    // which would measure the client rather than the panel and node.
    upTimes.push(await timed(() => curl(["-F", `file=@${sample}`, "-X", "PUT", `${base}/proxy/daemon/server/${id}/file/sample.bin`])));
    // Downloads are written by Bun.write: curl writes in 16 KB pieces, which on a small VM alone
    // takes longer than cp, and would again measure the client.
    downTimes.push(await timed(async () => {
      const res = await call("GET", `/proxy/daemon/server/${id}/file/sample.bin`);
      if (res.status !== 200) throw new Error(`download failed: ${res.status}`);
      await Bun.write(join(work, "downloaded.bin"), res);
    }));
  }
  const growth = peakRss() - rssBefore;
  const hash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
  if (hash(join(work, "downloaded.bin")) !== hash(sample)) throw new Error("the download differs from the sample");

  mkdirSync(join(serverDir, "many"));
  for (let i = 0; i < LISTED_FILES; i++) writeFileSync(join(serverDir, "many", `file-${i}.txt`), "x");
  const listTimes: number[] = [];
  for (let i = 0; i < 60; i++) {
    const took = await timed(async () => {
      const listing = await (await call("GET", `/proxy/daemon/server/${id}/file/many`)).json();
      if (listing.files.length !== LISTED_FILES) throw new Error("listing incomplete");
    });
    if (i >= 10) listTimes.push(took);
  }

  const cp = median(cpTimes);
  const up = median(upTimes);
  const down = median(downTimes);
  console.log(`files through the panel proxy, ${MEGABYTES} MB file, median of ${RUNS}; ${machine()}; ${kilnLabel()}`);
  table(["what", "time", "MB/s", "ratio to cp (budget ≥ 0.5, aim 0.8)"], [
    ["cp on the same disk", ms(cp), (MEGABYTES / (cp / 1000)).toFixed(0), "1.00"],
    ["upload through the proxy", ms(up), (MEGABYTES / (up / 1000)).toFixed(0), (cp / up).toFixed(2)],
    ["download through the proxy", ms(down), (MEGABYTES / (down / 1000)).toFixed(0), (cp / down).toFixed(2)],
  ]);
  console.log(`panel peak memory grew by ${mb(growth)} over ${RUNS} uploads and downloads of ${MEGABYTES} MB`);
  console.log(`listing a folder of ${LISTED_FILES} files through the proxy: median ${ms(median(listTimes))}, p95 ${ms(percentile(listTimes, 95))}`);
  rmSync(work, { recursive: true, force: true });
} finally {
  panel.proc.kill("SIGTERM");
  rmSync(data, { recursive: true, force: true });
}
