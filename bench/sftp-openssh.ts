// bench/sftp-openssh: the same transfers as bench/sftp-throughput, with the same OpenSSH client,
// against OpenSSH's own server (Debian's openssh-server, internal-sftp) on the same machine, and
// the bare SSH stream beneath them (`ssh host 'cat > /dev/null'` fed the file, and `ssh host cat
// file` written to /dev/null): what this machine's SSH transport allows at all, as a ratio to `cp`.
// The cipher is the one Kiln's node gives OpenSSH clients (AES-128-GCM); a login alone is timed
// and taken off, as in bench/sftp-throughput.
//   bun bench/sftp-openssh.ts [megabytes=200]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSshd } from "../test/helpers/sshd";
import { tempDir } from "../test/helpers/process";
import { machine, median, ms, table } from "./lib/figures";
import { timedRun, writeSampleFile } from "./lib/sample";

const MEGABYTES = Number(process.argv[2] ?? 200);
const RUNS = 3;
const CIPHER = "aes128-gcm@openssh.com";

for (const tool of ["sftp", "ssh"]) if (!Bun.which(tool)) throw new Error(`${tool} is needed (Debian: openssh-client)`);

const sshd = await startSshd();
const work = tempDir("kiln-bench-openssh-");
try {
  const key = join(work, "client_key");
  writeFileSync(key, sshd.privateKey, { mode: 0o600 });
  const sample = join(work, "sample.bin");
  writeSampleFile(sample, MEGABYTES);

  const options = ["-c", CIPHER, "-i", key, "-oBatchMode=yes", "-oStrictHostKeyChecking=no", "-oUserKnownHostsFile=/dev/null", "-oLogLevel=ERROR"];
  const timed = (argv: string[], stdin?: string) => timedRun(argv, { cwd: work, stdin });
  const sftp = (commands: string) => {
    const batch = join(work, "batch.txt");
    writeFileSync(batch, `${commands}\n`);
    return timed(["sftp", ...options, "-P", String(sshd.port), "-b", batch, `${sshd.user}@127.0.0.1`]);
  };
  const ssh = (command: string, stdin?: string) => timed(["ssh", ...options, "-p", String(sshd.port), `${sshd.user}@127.0.0.1`, command], stdin);

  const times = { cp: [] as number[], login: [] as number[], sftpLogin: [] as number[], put: [] as number[], get: [] as number[], streamIn: [] as number[], streamOut: [] as number[] };
  await ssh("true");
  for (let run = 0; run < RUNS; run++) {
    times.cp.push(await timed(["cp", sample, join(work, "copy.bin")]));
    times.sftpLogin.push(await sftp("pwd"));
    times.put.push(await sftp(`put ${sample} ${join(work, "put.bin")}`));
    times.get.push(await sftp(`get ${sample} ${join(work, "got.bin")}`));
    times.login.push(await ssh("true"));
    times.streamIn.push(await ssh("cat > /dev/null", sample));
    times.streamOut.push(await ssh(`cat ${sample}`));
  }
  const cp = median(times.cp);
  const row = (what: string, total: number[], login: number[]) => {
    const time = median(total) - median(login);
    return [what, ms(time), `${Math.round(MEGABYTES / (time / 1000))}`, (cp / time).toFixed(2)];
  };
  console.log(`OpenSSH's server and client (${CIPHER}), ${MEGABYTES} MB file, median of ${RUNS}, logins taken off; ${machine()}`);
  table(
    ["what", "time", "MB/s", "ratio to cp"],
    [
      ["cp on the same disk", ms(cp), `${Math.round(MEGABYTES / (cp / 1000))}`, "1.00"],
      row("sftp upload (put)", times.put, times.sftpLogin),
      row("sftp download (get)", times.get, times.sftpLogin),
      row("bare SSH stream in (ssh host 'cat > /dev/null' < file)", times.streamIn, times.login),
      row("bare SSH stream out (ssh host cat file > /dev/null)", times.streamOut, times.login),
    ],
  );
  console.log(`a login alone: ssh ${ms(median(times.login))}, sftp ${ms(median(times.sftpLogin))}`);
} finally {
  sshd.stop();
}
