// A failed backup's reason is shown to the server's users (the error of their request, the
// console line): it said restic's last words, and restic's last words name the target. A backup
// to an S3 target whose name does not resolve said "s3:http://backup-host.invalid/bucket" (and
// the line before named the node's resolver); an SFTP target's, the user, host and folder. Now
// the reason is one of a few fixed ones (daemon/backups/restic-failure); the node's log keeps
// what restic said.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasRestic } from "../helpers/require-part";

const here = hasRestic() && Bun.which("ssh-keygen") !== null;
let t: TestNode;
const consoleOf = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

beforeAll(async () => {
  if (!here) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  const keys = tempDir("kiln-key-");
  expect(Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", join(keys, "id")]).exitCode).toBe(0);
  expect((await t.call("PUT", "/daemon/backup-targets/s3", { endpoint: "http://backup-host.invalid", bucket: "secret-bucket", path: "node-7", accessKeyId: "AKIAKILN", secretAccessKey: "s3cret" })).status).toBe(200);
  expect((await t.call("PUT", "/daemon/backup-targets/sftp", { host: "sftp-host.invalid", port: 2222, user: "kilnbackup", path: "/srv/restic/node-7", privateKey: readFileSync(join(keys, "id"), "utf8") })).status).toBe(200);
}, 30_000);
afterAll(() => t?.stop());

describe.skipIf(!here)("a backup to a target that cannot be reached", () => {
  for (const [target, secrets] of [
    ["s3", ["backup-host", "invalid", "secret-bucket", "node-7", "http", "s3:", "lookup", ":53"]],
    ["sftp", ["sftp-host", "invalid", "kilnbackup", "/srv/restic", "node-7", "2222", "sftp:"]],
  ] as const) {
    test(`${target}: the reason names no URL, host, user or folder of the target`, async () => {
      const id = `unreached-${target}`;
      expect((await t.call("PUT", `/daemon/server/${id}`, { ...echoTemplate(), install: [] })).status).toBe(201);
      expect((await t.call("POST", `/daemon/server/${id}/backup-settings/policy`, { target })).status).toBe(200);
      const made = await t.call("POST", `/daemon/server/${id}/backups?wait=true`);
      const body = await made.json();
      expect({ status: made.status, code: body.error?.code }).toEqual({ status: 502, code: "ErrBackupFailed" });
      const said = [JSON.stringify(body), await consoleOf(id)].join("\n");
      for (const secret of secrets) expect({ secret, shown: said.includes(secret) }).toEqual({ secret, shown: false });
      expect(body.error.metadata.reason).toBe("the backup target could not be reached or refused the node");
    }, 60_000);
  }
});
