// HEAD on what the node streams, over and over, by a user holding only the right to read it:
// Hono answered a HEAD by dropping the GET's body, and a stream dropped is never read or
// cancelled. A file's kept its descriptor open for good (100 HEADs, 100 descriptors), until the
// node could open no more; a backup's download left its `restic dump` running, blocked on its
// output. Now the whole answer reaches Bun.serve, which sends no body and cancels the stream
// (core/http/head), and the node answers a file's HEAD from its size with the descriptor closed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveInProcess } from "../../server/daemon-client";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";

let rig: ServedPanel;
let viewer: { token: string };
beforeAll(async () => {
  rig = await servedPanelWithServer("headed");
  // Random bytes: a download of them cannot be packed small enough to end unread.
  writeFileSync(join(rig.node.folder(rig.id), "world.bin"), randomBytes(4 * 1024 * 1024));
  viewer = await rig.ctx.userWith(rig.id, { viewServerFiles: true });
});
afterAll(() => rig.stop());

/** Descriptors this process holds: the panel's and the node's alike. */
const descriptors = () => readdirSync("/proc/self/fd").length;

async function heads(count: number): Promise<void> {
  const url = `http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/file/world.bin`;
  for (let i = 0; i < count; i++) {
    const head = await fetch(url, { method: "HEAD", headers: { cookie: `kiln=${viewer.token}` } });
    expect(head.status).toBe(200);
    await head.arrayBuffer();
  }
}

async function settled(): Promise<number> {
  Bun.gc(true);
  await Bun.sleep(100);
  return descriptors();
}

test("200 HEADs of a file leave no descriptor open, with the node over HTTP", async () => {
  await heads(5);
  const before = await settled();
  await heads(200);
  expect(await settled()).toBeLessThan(before + 10);
});

test("and with the node in the panel's process", async () => {
  const stop = serveInProcess(rig.node.node.url, rig.node.node);
  try {
    await heads(5);
    const before = await settled();
    await heads(200);
    expect(await settled()).toBeLessThan(before + 10);
  } finally {
    stop();
  }
});

/** The `restic dump` processes running now on this test's node (its repository lies in the node's folder; other files' tests run restic too). */
function dumps(): number {
  const pids = Bun.spawnSync(["pgrep", "-f", "restic.* dump "]).stdout.toString().trim().split("\n").filter(Boolean);
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").includes(rig.node.config.dataDir);
    } catch {
      return false; // ended meanwhile
    }
  }).length;
}

test.skipIf(!hasRestic())("HEADs of a backup's download leave no restic running", async () => {
  const backups = await rig.ctx.userWith(rig.id, { backups: true });
  const made = await fetch(`http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/backups?wait=true`, { method: "POST", headers: { cookie: `kiln=${backups.token}`, origin: `http://127.0.0.1:${rig.server.port}`, "content-type": "application/json" }, body: "{}" });
  expect(made.status).toBeLessThan(300);
  const { id } = (await made.json()) as { id: string };
  const url = `http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/backups/${id}/download`;
  for (let i = 0; i < 5; i++) {
    const head = await fetch(url, { method: "HEAD", headers: { cookie: `kiln=${backups.token}` } });
    expect(head.status).toBe(200);
    await head.arrayBuffer();
  }
  await eventually(() => dumps() === 0, 5_000, "no restic dump left running");
}, 60_000);
