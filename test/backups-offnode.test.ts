// Backups kept off the node, with the real restic: an SFTP target against Debian's
// OpenSSH server and an S3 target against s3rver, both started here. Each: the target set
// through the node's API (secrets never shown back, nor on restic's command line), a server's
// policy pointed at it, a backup, a change, a restore bit for bit, and a download.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, type TestNode } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { treeChecksums } from "./helpers/checksums";
import { changeBackupData, writeBackupData } from "./helpers/backup-data";
import { partAvailable, hasRestic } from "./helpers/require-part";
import { SSHD_PATH, startSshd, type TestSshd } from "./helpers/sshd";
import { startS3, type TestS3 } from "./helpers/s3-server";
import { descendants } from "./helpers/process-tree";
import { hasOutwardAddress, outwardAddress } from "./helpers/outward-address";

const resticHere = hasRestic() && hasOutwardAddress();
/** Targets may not be on loopback (daemon/net/outbound-guard): the test's servers listen on this machine's outward address. */
const address = outwardAddress()!;
const hasSshd = resticHere && partAvailable("OpenSSH server (/usr/sbin/sshd)", () => existsSync(SSHD_PATH));
let t: TestNode;
let sshd: TestSshd | null = null;
let s3: TestS3 | null = null;
/** Every restic command line seen while the tests ran: none may hold a secret. */
const argvSeen: string[] = [];
let watching = true;

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  void (async () => {
    while (watching) {
      // restic runs below the node, which runs in this process.
      for (const { pid } of descendants(process.pid)) {
        try {
          const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8");
          if (argv.includes("restic")) argvSeen.push(argv.replaceAll("\0", " "));
        } catch {
          // gone
        }
      }
      await Bun.sleep(20);
    }
  })();
});
afterAll(async () => {
  watching = false;
  sshd?.stop();
  await s3?.stop();
  await t?.stop();
});

const folder = (id: string) => t.folder(id);

/** The round trip on one target: backup, change, backup, restore the first, download the second. Resolves with the second's files. */
async function roundTrip(id: string, target: string): Promise<Record<string, string>> {
  expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
  writeBackupData(folder(id), 8, 2, 50);
  const policy = await t.call("POST", `/daemon/server/${id}/backup-settings/policy`, { target });
  expect(policy.status).toBe(200);
  const first = await t.json("POST", `/daemon/server/${id}/backups?wait=true`);
  const sumsFirst = treeChecksums(folder(id));
  changeBackupData(folder(id), 1);
  const second = await t.json("POST", `/daemon/server/${id}/backups?wait=true`);
  const sumsSecond = treeChecksums(folder(id));
  expect(second.added).toBeLessThan(first.added);
  const { backups } = await t.json("GET", `/daemon/server/${id}/backups`);
  expect(backups.map((b: { shortId: string }) => b.shortId)).toEqual([second.shortId, first.shortId]);
  expect((await t.call("POST", `/daemon/server/${id}/backups/${first.id}/restore?wait=true`, {})).status).toBe(204);
  expect(treeChecksums(folder(id))).toEqual(sumsFirst);
  const download = await t.call("GET", `/daemon/server/${id}/backups/${second.id}/download?format=tar.gz`);
  expect(download.status).toBe(200);
  const out = tempDir("kiln-offnode-");
  await Bun.write(join(out, "a.tar.gz"), download);
  mkdirSync(join(out, "x"));
  expect(Bun.spawnSync(["tar", "xzf", join(out, "a.tar.gz"), "-C", join(out, "x")]).exitCode).toBe(0);
  expect(treeChecksums(join(out, "x"))).toEqual(sumsSecond);
  return sumsSecond;
}

describe.skipIf(!hasSshd)("an SFTP target (OpenSSH started by the test)", () => {
  test("set with a private key that is never shown again; backups made, restored and downloaded through it", async () => {
    sshd = await startSshd(address);
    const repo = tempDir("kiln-sftp-repo-");
    const set = await t.call("PUT", "/daemon/backup-targets/sftp", { host: address, port: sshd.port, user: sshd.user, path: `${repo}/node`, privateKey: sshd.privateKey });
    expect(set.status).toBe(200);
    const view = await set.json();
    expect(view).toMatchObject({ kind: "sftp", configured: true, privateKeySet: true });
    expect(JSON.stringify(view)).not.toContain("PRIVATE KEY");
    // A form sent again without the key keeps it.
    expect((await t.call("PUT", "/daemon/backup-targets/sftp", { host: address, port: sshd.port, user: sshd.user, path: `${repo}/node` })).status).toBe(200);
    await roundTrip("viasftp", "sftp");
    expect(existsSync(join(repo, "node", "config"))).toBe(true);
    const keyFile = join(t.config.dataDir, "backups", "ssh", "sftp.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.config.dataDir, "backups")).mode & 0o777).toBe(0o700);
  }, 60_000);
});

describe.skipIf(!resticHere)("an S3-compatible target (s3rver started by the test)", () => {
  test("set with a secret key that is never shown again; backups made, restored and downloaded through it", async () => {
    s3 = await startS3(address);
    const set = await t.call("PUT", "/daemon/backup-targets/s3", { endpoint: s3.endpoint, bucket: s3.bucket, path: "node-1", accessKeyId: s3.accessKeyId, secretAccessKey: "S3RVER", caCert: s3.caCert });
    expect(set.status).toBe(200);
    const { targets } = await t.json("GET", "/daemon/backup-targets");
    const s3view = targets.find((x: { kind: string }) => x.kind === "s3");
    expect(s3view).toMatchObject({ configured: true, secretAccessKeySet: true, caCertSet: true, bucket: s3.bucket });
    expect(s3view.secretAccessKey).toBeUndefined();
    const newest = await roundTrip("vias3", "s3");
    // restic was given the secrets through its environment and files, never its argv.
    expect(argvSeen.length).toBeGreaterThan(0);
    for (const argv of argvSeen) {
      expect(argv).not.toContain("PRIVATE KEY");
      expect(argv).not.toContain("S3RVER");
      expect(argv).not.toContain(readFileSync(join(t.config.dataDir, "backups", "keys", "s3.password"), "utf8"));
    }

    // The node is lost with its disk: a new one, given the target and the repository's password
    // (kept elsewhere by the administrator), makes the server again with its newest backup.
    const password = await (await t.call("GET", "/daemon/backup-targets/s3/password")).text();
    expect(password.length).toBeGreaterThanOrEqual(32);
    const rebuilt = await startTestNode({ stopTimeoutMs: 2000 });
    try {
      const wrong = await rebuilt.call("PUT", "/daemon/backup-targets/s3", { endpoint: s3!.endpoint, bucket: s3!.bucket, path: "node-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", caCert: s3!.caCert, repositoryPassword: "not the password of that one" });
      expect(wrong.status).toBe(200);
      const known = { servers: ["vias3"] };
      const refused = await rebuilt.call("POST", "/daemon/backup-targets/s3/recover", known);
      expect((await refused.json()).error.code).toBe("ErrBackupFailed");
      expect((await rebuilt.call("PUT", "/daemon/backup-targets/s3", { endpoint: s3!.endpoint, bucket: s3!.bucket, path: "node-1", accessKeyId: "S3RVER", caCert: "", repositoryPassword: password })).status).toBe(200);
      // A definition the panel does not name for this node is left in the repository, never made.
      expect(await rebuilt.json("POST", "/daemon/backup-targets/s3/recover", { servers: [] })).toEqual({ recovered: [], skipped: [], failed: [], unknown: ["vias3"] });
      expect(existsSync(join(rebuilt.config.dataDir, "servers", "vias3.json"))).toBe(false);
      const recovered = await rebuilt.json("POST", "/daemon/backup-targets/s3/recover", known);
      expect(recovered).toEqual({ recovered: ["vias3"], skipped: [], failed: [], unknown: [] });
      expect(await rebuilt.json("GET", "/daemon/server/vias3")).toEqual(await t.json("GET", "/daemon/server/vias3"));
      expect(treeChecksums(rebuilt.folder("vias3"))).toEqual(newest);
      expect((await rebuilt.json("GET", "/daemon/server/vias3/backups")).backups).toHaveLength(2);
      // A second recovery leaves the server it has alone.
      expect(await rebuilt.json("POST", "/daemon/backup-targets/s3/recover", known)).toEqual({ recovered: [], skipped: ["vias3"], failed: [], unknown: [] });
    } finally {
      await rebuilt.stop();
    }
  }, 90_000);
});
