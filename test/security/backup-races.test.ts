// Attacks on backups by the server's own process (sandboxed, its own uid), with the real restic,
// which reads the server's folder as the node (root, outside the sandbox) and opens each file by
// its path:
//
// - A folder of the server's swapped for a link to a host folder while restic is inside it
//   (renameat2 RENAME_EXCHANGE): restic opened d/<name> through the link and stored the host file
//   (root's, one name) as the server's; the download and a restore handed it back. Here the swap
//   is made once, the moment restic opens its first file in the folder (inotify), so the race is
//   won every time. Now restic reads in a view of its own (daemon/backups/backup-view), where the
//   link leads nowhere, and nothing that is not the server's own is handed back
//   (daemon/backups/handed-back).
// - A file swapped for a named pipe between restic's look and its open: restic's open waited for
//   a writer for good, and backups run one at a time per target, so every other server's backup
//   on the node's own disk waited behind it. Now a backup that gets nowhere is ended
//   (daemon/backups/progress-watch; its limits shortened here), restic removes its lock, and the
//   queue moves on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasRestic } from "../helpers/require-part";
import { checkView } from "../../daemon/backups/backup-view";

// renameat2 (316), inotify_init1 (294) and inotify_add_watch (254) by number: x86-64's.
const here = hasRestic() && process.arch === "x64" && process.getuid?.() === 0;
let t: TestNode;

async function putServer(id: string, command: string, script?: string): Promise<void> {
  expect((await t.call("PUT", `/daemon/server/${id}`, { ...echoTemplate({ command }), install: [] })).status).toBe(201);
  if (!script) return;
  const form = new FormData();
  form.append("file", new Blob([script]), "x");
  expect((await t.fetch(`${t.node.url}/daemon/server/${id}/file/flip.pl`, { method: "PUT", body: form })).status).toBe(200);
}
const consoleOf = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

beforeAll(async () => {
  if (!here) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
}, 30_000);
afterAll(() => t?.stop());

describe.skipIf(!here)("a folder swapped for a link into the host while restic is inside it", () => {
  const ID = "racer";
  const MARK = `HOST-SECRET-${randomBytes(6).toString("hex")}`;
  const SECRET = "zz-secret.txt";
  let outside = "";

  // d: 2000 files and one named like the host's; l: a link to the host folder. At restic's first
  // open of a file in d, d and l are swapped: restic goes on opening d/<name> through the link.
  const FLIP = String.raw`#!/usr/bin/perl
use strict; $| = 1;
my $host = shift;
mkdir "d";
for my $i (0 .. 1999) { open(my $f, ">", sprintf("d/f%04d", $i)) or die; print $f "x" x 64; close $f; }
open(my $f, ">", "d/${SECRET}") or die; print $f "harmless\n"; close $f;
symlink($host, "l") or die;
my $in = syscall(294, 0);
die "inotify_init1" if $in < 0;
my $dir = "d";
die "inotify_add_watch" if syscall(254, $in, $dir, 0x20) < 0;
open(my $events, "<&=", $in) or die;
print "ready uid=$<\n";
OUTER: while (1) {
  my $buf = "";
  sysread($events, $buf, 65536) or die;
  for (my $at = 0; $at < length $buf;) {
    my ($wd, $mask, $cookie, $len) = unpack("iIII", substr($buf, $at, 16));
    my $name = unpack("Z*", substr($buf, $at + 16, $len));
    $at += 16 + $len;
    next unless $name =~ /^f\d/;
    my ($a, $b) = ("d", "l");
    syscall(316, -100, $a, -100, $b, 2) == 0 or die "renameat2";
    print "swapped at $name\n";
    last OUTER;
  }
}
sleep 3600;
`;

  beforeAll(async () => {
    outside = tempDir("kiln-host-");
    writeFileSync(join(outside, SECRET), `${MARK}\n`, { mode: 0o600 });
    await putServer(ID, `perl flip.pl ${outside}`, FLIP);
    await t.json("POST", `/daemon/server/${ID}/start?wait=true`);
    await eventually(async () => (await consoleOf(ID)).includes("ready uid="), 20_000, "the server's process");
    // Its own uid, not the node's.
    expect(await consoleOf(ID)).not.toContain("ready uid=0\n");
  }, 30_000);

  let backupId = "";
  test("the backup is made while the link is swapped in; neither its download nor its listing holds the host file", async () => {
    // restic stops short of d's files after the swap (they are not there): the backup may say so (502), the snapshot is kept.
    const made = await t.call("POST", `/daemon/server/${ID}/backups?wait=true`);
    expect([201, 502]).toContain(made.status);
    expect(await consoleOf(ID)).toMatch(/swapped at f\d{4}/);
    const { backups } = await t.json("GET", `/daemon/server/${ID}/backups`);
    expect(backups).toHaveLength(1);
    backupId = backups[0].id;
    for (const format of ["tar.gz", "zip"] as const) {
      const response = await t.call("GET", `/daemon/server/${ID}/backups/${backupId}/download?format=${format}`);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = (format === "zip" ? bytes : gunzipSync(bytes)).toString("latin1");
      expect({ format, holdsHostFile: text.includes(MARK) }).toEqual({ format, holdsHostFile: false });
    }
    const listed = await t.call("GET", `/daemon/server/${ID}/backups/${backupId}/files?path=d`);
    if (listed.status === 200) expect(((await listed.json()).files as Array<{ name: string; size: number }>).filter((f) => f.name === SECRET && f.size === MARK.length + 1)).toEqual([]);
  }, 30_000);

  test("restic's view: the snapshot itself never held the host file (the link led nowhere)", async () => {
    const data = join(t.config.dataDir, "backups");
    const view = await checkView(Bun.which("restic")!, join(data, "tmp"));
    if (view.problem) return console.log(`skipped: ${view.problem}`);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", RESTIC_REPOSITORY: join(data, "local"), RESTIC_PASSWORD_FILE: join(data, "keys", "local.password"), RESTIC_CACHE_DIR: join(data, "cache") };
    const raw = Bun.spawnSync(["restic", "dump", "--no-lock", backupId, "/"], { env });
    expect(raw.exitCode).toBe(0);
    expect(raw.stdout.toString("latin1")).not.toContain(MARK);
    // The race was run: restic did go on through the link, and found none of d's files there.
    const found = Bun.spawnSync(["restic", "ls", "--no-lock", "--json", backupId, "/d"], { env });
    const inD = found.stdout.toString().split("\n").filter((line) => line.includes('"struct_type":"node"') && line.includes('"path":"/d/')).length;
    expect(inD).toBeLessThan(2001);
  }, 30_000);

  test("a restore, of the file or of the whole folder, does not bring the host file back", async () => {
    const one = await t.call("POST", `/daemon/server/${ID}/backups/${backupId}/restore?wait=true`, { path: `d/${SECRET}` });
    expect([403, 404]).toContain(one.status);
    expect((await t.call("POST", `/daemon/server/${ID}/backups/${backupId}/restore?wait=true`, {})).status).toBe(204);
    const holding: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const stats = lstatSync(path);
        if (stats.isDirectory()) walk(path);
        else if (stats.isFile() && readFileSync(path, "latin1").includes(MARK)) holding.push(path);
      }
    };
    walk(t.folder(ID));
    expect(holding).toEqual([]);
  }, 30_000);
});

describe.skipIf(!here)("a file swapped for a named pipe while restic reads it", () => {
  // d's files are regular; e holds a named pipe under each of their names. The two folders are
  // swapped in a loop: restic looks at d/<name> and finds a file, then opens the pipe.
  const FLIP = String.raw`#!/usr/bin/perl
use strict; use POSIX qw(mkfifo); $| = 1;
mkdir "d"; mkdir "e";
for my $i (0 .. 499) {
  my $name = sprintf("f%03d", $i);
  open(my $f, ">", "d/$name") or die; print $f "x" x 100; close $f;
  mkfifo("e/$name", 0600) or die "mkfifo";
}
print "flipping uid=$<\n";
my ($a, $b) = ("d", "e");
while (1) { syscall(316, -100, $a, -100, $b, 2); }
`;

  beforeAll(async () => {
    await putServer("hog", "perl flip.pl", FLIP);
    await putServer("victim", "sleep 3600");
    writeFileSync(t.folder("victim", "world.dat"), randomBytes(1 << 20));
    await t.json("POST", `/daemon/server/hog/start?wait=true`);
    await eventually(async () => (await consoleOf("hog")).includes("flipping uid="), 20_000, "the server's process");
    // The limits shortened: 4 s without progress (2 minutes on a node).
    t.node.backups.stall = { stallMs: 4000, idleMs: 60_000 };
  }, 30_000);

  test("the backup stuck on the pipe is ended; another server's backup on the same target goes through; the repository is not left locked", async () => {
    let stuck = false;
    for (let attempt = 0; attempt < 5 && !stuck; attempt++) {
      const hog = t.call("POST", `/daemon/server/hog/backups?wait=true`);
      // 500 small files take well under a second: still running after 2 s, restic waits on a pipe.
      if ((await Promise.race([hog, Bun.sleep(2000).then(() => null)])) !== null) continue;
      stuck = true;
      const started = Date.now();
      const victim = await Promise.race([t.call("POST", `/daemon/server/victim/backups?wait=true`), Bun.sleep(15_000).then(() => null)]);
      expect({ victim: victim?.status ?? "still waiting after 15 s" }).toEqual({ victim: 201 });
      expect(Date.now() - started).toBeLessThan(15_000);
      const ended = await hog;
      const body = await ended.json();
      expect({ status: ended.status, code: body.error?.code }).toEqual({ status: 502, code: "ErrBackupFailed" });
      expect(body.error.metadata.reason).toContain("no progress");
      expect(await consoleOf("hog")).toContain("no progress");
      // Locking takes restic's exclusive lock: a lock the ended restic left would refuse it.
      const { id } = await victim!.json();
      expect((await t.call("POST", `/daemon/server/victim/backups/${id}/lock`, { locked: true })).status).toBe(204);
    }
    expect(stuck).toBe(true);
  }, 30_000);
});
