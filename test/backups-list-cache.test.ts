// The node keeps each server's backup list until it changes the repository itself: restic opens a
// repository with a key derivation of about half a second (and 60 MiB), so a Backups tab opened
// again, or a refused action, should not pay it again. Counted through a restic on the node's PATH
// that logs each call before running the real one; what the list says stays right after every
// change (a backup, a lock, a delete).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, type TestNode } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { partAvailable } from "./helpers/require-part";

const realRestic = Bun.which("restic");
const resticHere = partAvailable("restic", () => realRestic !== null);
const logged = tempDir("kiln-restic-log-");
const log = join(logged, "calls.log");
let t: TestNode;

beforeAll(async () => {
  if (!resticHere) return;
  writeFileSync(join(logged, "restic"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realRestic}' "$@"\n`);
  chmodSync(join(logged, "restic"), 0o755);
  writeFileSync(log, "");
  // The node reads its PATH once, at start.
  const path = process.env.PATH;
  process.env.PATH = `${logged}:${path}`;
  try {
    t = await startTestNode();
  } finally {
    process.env.PATH = path;
  }
});
afterAll(async () => {
  await t?.stop();
  if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
  rmSync(logged, { recursive: true, force: true });
});

const listings = () => readFileSync(log, "utf8").split("\n").filter((line) => /(^| )snapshots( |$)/.test(line)).length;
type Listed = { backups: Array<{ id: string; locked: boolean }> };
const list = async () => (await t.json("GET", "/daemon/server/cached/backups")) as Listed;

describe.skipIf(!resticHere)("the backup list", () => {
  test("is listed once until the node changes the repository; each change shows at once", async () => {
    expect((await t.call("PUT", "/daemon/server/cached", echoTemplate())).status).toBe(201);
    writeFileSync(t.folder("cached", "world.dat"), "a world");
    expect((await list()).backups).toEqual([]);
    const first = listings();
    expect((await list()).backups).toEqual([]);
    expect(listings()).toBe(first);

    const made = await t.fetch(`${t.node.url}/daemon/server/cached/backups?wait=true`, { method: "POST" });
    expect(made.status).toBe(201);
    const [one] = (await list()).backups;
    expect(one).toBeDefined();
    const afterBackup = listings();
    expect(afterBackup).toBe(first + 1);
    await list();
    expect(listings()).toBe(afterBackup);

    expect((await t.call("POST", `/daemon/server/cached/backups/${one!.id}/lock`, { locked: true })).status).toBe(204);
    expect((await list()).backups.map((b) => b.locked)).toEqual([true]);
    expect((await t.call("POST", `/daemon/server/cached/backups/${one!.id}/lock`, { locked: false })).status).toBe(204);
    const [unlocked] = (await list()).backups;
    expect(unlocked!.locked).toBe(false);
    expect((await t.call("DELETE", `/daemon/server/cached/backups/${unlocked!.id}`)).status).toBe(204);
    expect((await list()).backups).toEqual([]);
  }, 60_000);
});
