import { expect, test } from "bun:test";
import { failureReason } from "./restic-failure";

// What restic 0.14 says when a target cannot be reached, word for word.
const SAID = [
  'Fatal: unable to open config file: Stat: Get "http://backup-host.invalid/bucket/?location=": dial tcp: lookup backup-host.invalid on 10.255.255.53:53: no such host\nIs there a repository at the following location?\ns3:http://backup-host.invalid/bucket\n',
  'Fatal: create repository at s3:http://203.0.113.9:9000/bucket failed: client.BucketExists: Get "http://203.0.113.9:9000/bucket/?location=": dial tcp 203.0.113.9:9000: connect: connection refused\n',
  "subprocess ssh: ssh: Could not resolve hostname sftp-host.invalid: Name or service not known\nFatal: unable to open repository at sftp:kiln@sftp-host.invalid:/srv/restic: unable to start the sftp session, error: EOF\n",
];

test("a target that cannot be reached: a fixed reason, none of the URL, host, address or folder", () => {
  for (const stderr of SAID) {
    const reason = failureReason("init", 1, stderr);
    expect(reason).toBe("the backup target could not be reached or refused the node");
    for (const secret of ["backup-host", "sftp-host", "203.0.113.9", "10.255.255.53", "http", "/srv/restic", "bucket"]) expect(reason).not.toContain(secret);
  }
});

test("the failures a user can act on keep their sense; anything else names only the command", () => {
  expect(failureReason("backup", 1, "Fatal: unable to save snapshot: write /srv/kiln/backups/local/data/ab/x: no space left on device")).toBe("the backup target has no space left");
  expect(failureReason("snapshots", 1, "Fatal: wrong password or no key found")).toBe("the repository's password does not open it");
  expect(failureReason("forget", 1, "unable to create lock in backend: repository is already locked by PID 12 on node-7 by root (UID 0, GID 0)")).toBe("the repository is locked by another run; try again later");
  expect(failureReason("backup", 3, "error: open /srv/kiln/servers/x/secret: permission denied\nWarning: at least one source file could not be read")).toBe("some files of the server's folder could not be read; the backup was made without them");
  expect(failureReason("ls", 1, "Fatal: /srv/x: strange")).toBe("restic ls failed (exit 1); the node's log has what it said");
});
