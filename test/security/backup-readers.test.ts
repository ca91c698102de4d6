// Attacks on the node by a user with `backups`, through the restic processes that read a snapshot
// for them (real restic):
//
// - Downloads (restic find, then restic dump) and browsing (restic ls) each started a restic per
//   request, with no bound: a loop of requests started restic after restic, each with its key
//   derivation (60 MiB) and its read of the repository. Now at most two per server and eight on
//   the node run at once (daemon/backups/reader-slots); past that, 429 ErrTooManyRequests.
// - A download asked for and never read: restic dump blocked on its full pipe and stayed there
//   for good. Now a download whose reader takes nothing for a minute (shortened here) is ended
//   and its restic killed (daemon/backups/download).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import { unreadAnswer } from "../helpers/unread-answer";

const here = hasRestic();
let t: TestNode;
const backupOf: Record<string, string> = {};

/** A download asked for on the node that reads nothing past the answer's head (../helpers/unread-answer). */
function stalledDownload(id: string): ReturnType<typeof unreadAnswer> {
  const url = `${t.node.url}/daemon/server/${id}/backups/${backupOf[id]}/download?format=zip`;
  const { port, pathname, search } = new URL(url);
  return unreadAnswer(Number(port), `${pathname}${search}`, t.nodeHeaders("GET", url));
}

/** The restic processes reading this snapshot (its id, which `snapshot` begins, is in their arguments). */
function resticsOf(snapshot: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv.some((a) => a.endsWith("restic")) && argv.some((a) => a.startsWith(snapshot))) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

beforeAll(async () => {
  if (!here) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  for (const id of ["reader", "other", "third"]) {
    expect((await t.call("PUT", `/daemon/server/${id}`, { ...echoTemplate({ command: "sleep 3600" }), install: [] })).status).toBe(201);
    // Random bytes do not compress: far more than the pipes and socket buffers between restic and the reader hold.
    writeFileSync(t.folder(id, "world.dat"), randomBytes(48 << 20));
    backupOf[id] = (await t.json("POST", `/daemon/server/${id}/backups?wait=true`)).id;
  }
}, 120_000);
afterAll(() => t?.stop());

describe.skipIf(!here)("restic readers of backups", () => {
  test("a third download or a browse of the same server while two are unread is refused (429); another server's is not", async () => {
    const open = [await stalledDownload("reader"), await stalledDownload("reader")];
    try {
      expect(open.map((d) => d.status)).toEqual([200, 200]);
      const third = await t.call("GET", `/daemon/server/reader/backups/${backupOf.reader}/download`);
      expect({ status: third.status, code: (await third.json()).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
      const browse = await t.call("GET", `/daemon/server/reader/backups/${backupOf.reader}/files?path=`);
      expect({ status: browse.status, code: (await browse.json()).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
      // Only two restic dumps of the backup run: nothing was started for the refused ones.
      expect(resticsOf(backupOf.reader!)).toHaveLength(2);
      expect((await t.call("GET", `/daemon/server/other/backups/${backupOf.other}/files?path=`)).status).toBe(200);
    } finally {
      for (const d of open) d.socket.destroy();
    }
    // Downloads given up give their slots back.
    await eventually(() => resticsOf(backupOf.reader!).length === 0, 20_000, "the dumps of the closed downloads to end");
    await eventually(async () => (await t.call("GET", `/daemon/server/reader/backups/${backupOf.reader}/files?path=`)).status === 200, 20_000, "a browse after the downloads were closed");
  }, 60_000);

  test("the node's bound holds across servers", async () => {
    t.node.backups.readers.limits = { perServer: 2, perNode: 3 };
    const open = [await stalledDownload("reader"), await stalledDownload("reader"), await stalledDownload("other")];
    try {
      expect(open.map((d) => d.status)).toEqual([200, 200, 200]);
      const fourth = await t.call("GET", `/daemon/server/third/backups/${backupOf.third}/download`);
      expect({ status: fourth.status, code: (await fourth.json()).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
      expect(resticsOf(backupOf.third!)).toHaveLength(0);
    } finally {
      for (const d of open) d.socket.destroy();
      t.node.backups.readers.limits = { perServer: 2, perNode: 8 };
    }
    await eventually(() => resticsOf(backupOf.reader!).length + resticsOf(backupOf.other!).length === 0, 20_000, "the dumps to end");
  }, 60_000);

  test("a download whose reader stops reading is ended, its restic killed, its slot given back", async () => {
    t.node.backups.downloadStallMs = 2000;
    const held = [await stalledDownload("third"), await stalledDownload("third")];
    try {
      expect(held.map((d) => d.status)).toEqual([200, 200]);
      await eventually(() => resticsOf(backupOf.third!).length === 2, 10_000, "both dumps to run");
      // The sockets stay open and unread: only the node's watch ends the dumps.
      await eventually(() => resticsOf(backupOf.third!).length === 0, 15_000, "the stalled dumps to be killed");
      const again = await t.call("GET", `/daemon/server/third/backups/${backupOf.third}/files?path=`);
      expect(again.status).toBe(200);
    } finally {
      for (const d of held) d.socket.destroy();
      t.node.backups.downloadStallMs = 60_000;
    }
  }, 60_000);
});
