// bench/sftp-throughput: upload and download of one large file over SFTP with the real OpenSSH
// client, against the local node of a real `kiln panel` process, each as a ratio to `cp` of the
// same file on the same disk. The time of a login alone (handshake, password check at the panel)
// is measured too and taken off, so the figures are the transfer itself.
//   bun bench/sftp-throughput.ts [megabytes=200]   (KILN_BENCH_EXE=dist/kiln: the executable)
import { createHash } from "node:crypto";
import { createReadStream, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sftpUsername } from "../core/sftp/username";
import { freePort, startKiln, tempDir } from "../test/helpers/process";
import { kilnCommand, kilnLabel } from "./lib/kiln";
import { echoTemplate } from "../test/helpers/node";
import { machine, max, mb, median, ms, table } from "./lib/figures";
import { timedRun, writeSampleFile } from "./lib/sample";
import { readRss, sampleProcess } from "./lib/daemon";

const MEGABYTES = Number(process.argv[2] ?? 200);
const RUNS = 3;
const ADMIN = { email: "admin@example.com", password: "a-long-password" };

for (const tool of ["sftp", "sshpass"]) if (!Bun.which(tool)) throw new Error(`${tool} is needed (Debian: openssh-client, sshpass)`);

const data = tempDir("kiln-bench-sftp-");
const port = await freePort();
const panel = await startKiln(
  kilnCommand("panel"),
  { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password },
  /SFTP on port (\d+)/,
);
const sftpPort = Number(panel.match[1]);
const base = `http://127.0.0.1:${port}`;
try {
  const token = (await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()).session as string;
  const call = (method: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  await call("PUT", "/api/templates/echo", echoTemplate());
  const nodeId = ((await (await fetch(`${base}/api/nodes`, { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{ id: number }>)[0]!.id;
  const { id } = await (await call("POST", "/api/servers", { name: "bench sftp", node: nodeId, template: "echo", environment: { type: "standard" } })).json();

  const work = tempDir("kiln-bench-sftp-sample-");
  const sample = join(work, "sample.bin");
  writeSampleFile(sample, MEGABYTES);

  const timed = (argv: string[]) => timedRun(argv, { cwd: work });
  const sftp = (commands: string) => {
    const batch = join(work, "batch.txt");
    writeFileSync(batch, `${commands}\n`);
    return timed(["sshpass", "-p", ADMIN.password, "sftp", "-oBatchMode=no", "-oStrictHostKeyChecking=no", "-oUserKnownHostsFile=/dev/null", "-oPubkeyAuthentication=no", "-oLogLevel=ERROR", "-P", String(sftpPort), "-b", batch, `${sftpUsername(ADMIN.email, id)}@127.0.0.1`]);
  };

  const cpTimes: number[] = [];
  const loginTimes: number[] = [];
  const upTimes: number[] = [];
  const downTimes: number[] = [];
  // The panel process (with its local node, which serves SFTP): its RSS every 50 ms of a transfer.
  const peaks = { up: 0, down: 0 };
  const watched = async (direction: keyof typeof peaks, commands: string) => {
    const sampler = sampleProcess(panel.proc.pid, 50);
    const time = await sftp(commands);
    sampler.stop();
    peaks[direction] = max([peaks[direction], ...sampler.samples.map((s) => s.rss)]);
    return time;
  };
  await sftp("pwd");
  // A login's argon2 check takes 64 MiB for a moment; the figure is after it has been given back.
  await Bun.sleep(2000);
  const idleRss = readRss(panel.proc.pid).rss;
  for (let run = 0; run < RUNS; run++) {
    cpTimes.push(await timed(["cp", sample, join(work, "copy.bin")]));
    loginTimes.push(await sftp("pwd"));
    upTimes.push(await watched("up", "put sample.bin sample.bin"));
    downTimes.push(await watched("down", "get sample.bin downloaded.bin"));
  }
  const hash = async (path: string) => {
    const h = createHash("sha256");
    for await (const chunk of createReadStream(path)) h.update(chunk);
    return h.digest("hex");
  };
  if ((await hash(join(work, "downloaded.bin"))) !== (await hash(sample))) throw new Error("the download differs from the sample");

  const cp = median(cpTimes);
  const login = median(loginTimes);
  const up = median(upTimes) - login;
  const down = median(downTimes) - login;
  console.log(kilnLabel());
  console.log(`SFTP with the OpenSSH client, ${MEGABYTES} MB file, median of ${RUNS}; ${machine()}`);
  table(["what", "time", "MB/s", "ratio to cp"], [
    ["cp on the same disk", ms(cp), (MEGABYTES / (cp / 1000)).toFixed(0), "1.00"],
    ["upload (put)", ms(up), (MEGABYTES / (up / 1000)).toFixed(0), (cp / up).toFixed(2)],
    ["download (get)", ms(down), (MEGABYTES / (down / 1000)).toFixed(0), (cp / down).toFixed(2)],
  ]);
  console.log(`a login alone (taken off the transfers above): median ${ms(login)}`);
  console.log(`panel and node RSS: ${mb(idleRss)} before the transfers, peak ${mb(peaks.up)} during uploads, ${mb(peaks.down)} during downloads`);
  rmSync(work, { recursive: true, force: true });
} finally {
  panel.proc.kill("SIGTERM");
  await panel.proc.exited;
  rmSync(data, { recursive: true, force: true });
}
