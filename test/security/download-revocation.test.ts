// Attack: a download streaming through the panel outlived the right to it. A server user who
// started a large download (a world, a backup) and was then removed from the server, lost the
// files right, or logged out in another tab kept receiving it to the last byte: rights were
// checked once, when the answer began. Now an open download is held to its rights as an open
// socket is: the change that takes them away ends it within a second, the rest is never sent, and
// the node stops reading the file. A real panel served over HTTP, a real node, a slow reader.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openSync, closeSync, ftruncateSync, readdirSync, readlinkSync } from "node:fs";
import { hasPostgres } from "../helpers/database";
import { eventually } from "../helpers/node";
import { jsonInit, servedPanelWithServer, type PanelWithNode, type ServedPanel } from "../helpers/panel-node";
import { jsonCall, sessionAt, twoPanelsWithServer, type TwoPanels } from "../helpers/panel-process";

/** From the call that takes the rights away to the download's end. */
const WITHIN_MS = 2000;
/** A sparse file: large to read, nothing on disk. */
const BIG = 300 * 1024 * 1024;

let rig: ServedPanel;
let ctx: PanelWithNode;
let id: string;
let bigPath: string;

beforeAll(async () => {
  rig = await servedPanelWithServer("download-revocation");
  ({ ctx, id } = rig);
  for (const name of ["big.bin", "mid.bin"]) {
    const fd = openSync(rig.node.folder(id, name), "w");
    ftruncateSync(fd, name === "big.bin" ? BIG : 32 * 1024 * 1024);
    closeSync(fd);
  }
  bigPath = rig.node.folder(id, "big.bin");
});
afterAll(() => rig?.stop());

/** Whether this process (the test node runs in it) still holds the file open. */
function nodeReads(path: string): boolean {
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

interface Download {
  /** Bytes received so far. */
  received(): number;
  /** Reads the rest as fast as it comes; resolves when the answer ends or fails, with when. */
  rest(): Promise<{ at: number; failed: boolean }>;
}

/** Starts a download as `token` and reads it slowly (a little at a time) for a moment. */
async function slowDownload(token: string, path: string, base = `http://127.0.0.1:${rig.server.port}`, serverId = id): Promise<Download> {
  const answer = await fetch(`${base}/proxy/daemon/server/${serverId}${path}`, { headers: { cookie: `kiln=${token}` } });
  expect(answer.status).toBe(200);
  const reader = answer.body!.getReader();
  let received = 0;
  for (let i = 0; i < 10; i++) {
    const chunk = await reader.read();
    if (chunk.done) break;
    received += chunk.value.length;
    await Bun.sleep(30);
  }
  return {
    received: () => received,
    async rest() {
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return { at: performance.now(), failed: false };
          received += chunk.value.length;
        }
      } catch {
        return { at: performance.now(), failed: true };
      }
    },
  };
}

/** Starts a slow download of the big file, runs `revoke`, and expects the download cut within WITHIN_MS, most of it never sent, and the node no longer reading. */
async function expectCutAfter(token: string, revoke: () => Promise<Response>, path = "/file/big.bin", base?: string, serverId?: string, file: string | null = bigPath): Promise<void> {
  const download = await slowDownload(token, path, base, serverId);
  expect(download.received()).toBeGreaterThan(0);
  if (file) expect(nodeReads(file)).toBe(true);
  const response = await revoke();
  expect(response.status).toBeLessThan(300);
  const done = performance.now();
  const end = await Promise.race([download.rest(), Bun.sleep(10_000).then(() => null)]);
  expect(end).not.toBeNull();
  // What was in flight (socket buffers) may arrive; the rest never does, and the answer fails.
  expect(download.received()).toBeLessThan(BIG / 4);
  expect(end!.failed).toBe(true);
  expect(end!.at - done).toBeLessThan(WITHIN_MS);
  if (file) await eventually(() => !nodeReads(file), WITHIN_MS, "the node to stop reading the file");
}

describe("a download in progress ends when its right does", () => {
  test("removed from the server", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, method: "DELETE" }));
  });

  test("logout in another tab (the same session)", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request("/auth/logout", { token: user.token, method: "POST" }));
  });

  test("the files right taken away (the user keeps the server)", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true, viewServerConsole: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { viewServerConsole: true }) }));
  });

  // A zip deflates the sparse file's zeros to little: what tells here is that it never completes.
  test("a zip of files: removed from the server", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, method: "DELETE" }), "/zip?path=big.bin");
  });

  test("a backup's download: the backups right taken away", async () => {
    const made = await ctx.panel.request(`/proxy/daemon/server/${id}/backups?wait=true`, { token: ctx.admin.token, method: "POST" });
    expect(made.status).toBe(201);
    const { backups } = await (await ctx.panel.request(`/proxy/daemon/server/${id}/backups`, { token: ctx.admin.token })).json();
    const user = await ctx.userWith(id, { backups: true, viewServerConsole: true });
    // restic reads its repository, not the file: whether the node still reads is not looked at here.
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { viewServerConsole: true }) }), `/backups/${backups[0].id}/download?format=zip`, undefined, undefined, null);
  }, 60_000);

  test("\"Secure this account\" by an administrator", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/users/${user.userId}/secure`, { token: ctx.admin.token, ...jsonInit("POST", {}) }));
  });

  test("the server deleted", async () => {
    const doomed = await ctx.createServer("download-revocation-deleted");
    const file = rig.node.folder(doomed, "big.bin");
    const fd = openSync(file, "w");
    ftruncateSync(fd, BIG);
    closeSync(fd);
    const user = await ctx.userWith(doomed, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/servers/${doomed}`, { token: ctx.admin.token, method: "DELETE" }), "/file/big.bin", undefined, doomed, file);
  });

  test("account deleted", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true });
    await expectCutAfter(user.token, () => ctx.panel.request(`/api/users/${user.userId}`, { token: ctx.admin.token, method: "DELETE" }));
  });
});

describe("a download whose holder keeps the right is whole", () => {
  test("another user's removal and the holder's own session renewal leave it to its last byte", async () => {
    const keeper = await ctx.userWith(id, { viewServerFiles: true });
    const other = await ctx.userWith(id, { viewServerFiles: true });
    const download = await slowDownload(keeper.token, "/file/mid.bin");
    expect((await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(other.email)}`, { token: ctx.admin.token, method: "DELETE" })).status).toBeLessThan(300);
    expect((await ctx.panel.request("/auth/reauth", { token: keeper.token, method: "POST" })).status).toBe(200);
    await Bun.sleep(1000);
    const end = await download.rest();
    expect(end.failed).toBe(false);
    expect(download.received()).toBe(32 * 1024 * 1024);
  });
});

// Behind a balancer the download runs through one panel process and the change is made through
// another: the one holding the download hears of it through the change feed ("Several panels").
describe.if(hasPostgres())("two panels on one PostgreSQL database", () => {
  let rig: TwoPanels;
  let file: string;

  beforeAll(async () => {
    rig = await twoPanelsWithServer("downloaded");
    file = rig.node.folder(rig.serverId, "big.bin");
    const fd = openSync(file, "w");
    ftruncateSync(fd, BIG);
    closeSync(fd);
  }, 60_000);
  afterAll(() => rig?.stop());

  test("downloading through one panel, removed from the server through the other", async () => {
    const { a, b, admin, serverId } = rig;
    const password = "a-readers-long-password";
    expect((await fetch(`${a.base}/api/users`, jsonCall("POST", { email: "reader@example.com", username: "reader", password }, admin))).status).toBe(201);
    expect((await fetch(`${a.base}/api/servers/${serverId}/user/reader%40example.com`, jsonCall("PUT", { viewServerFiles: true }, admin))).status).toBeLessThan(300);
    const session = await sessionAt(a.base, { email: "reader@example.com", password });
    await expectCutAfter(session, () => fetch(`${b.base}/api/servers/${serverId}/user/reader%40example.com`, jsonCall("DELETE", undefined, admin)), "/file/big.bin", a.base, serverId, file);
  }, 30_000);
});
