// HEAD on a file read through the panel, by a user who may only view files, over and over: Hono
// answered a HEAD by dropping the GET's body, and the node's file stream, never read or cancelled,
// kept its descriptor open for good (100 HEADs, 100 descriptors), until the node could open no
// more. Now the whole answer reaches Bun.serve, which sends no body (core/http/head), and the
// node answers a file's HEAD from its size with the descriptor closed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveInProcess } from "../../server/daemon-client";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";

let rig: ServedPanel;
let viewer: { token: string };
beforeAll(async () => {
  rig = await servedPanelWithServer("headed");
  writeFileSync(join(rig.node.folder(rig.id), "world.bin"), new Uint8Array(4 * 1024 * 1024));
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
