// Downloads asked for and never read. A download through the proxy lasts as long as its reader
// takes it (a file, a zip, a backup: no time bound), and each held open costs the panel its two
// connections and what its fetch of the node buffers (about 3 MiB), and the node an open file and
// a connection. One user with the files right opened 60 downloads of one file over raw sockets
// that never read: the node held the file open 60 times and the process grew by some 200 MiB,
// with no end but the machine's. Now one user holds at most DOWNLOADS_PER_SERVER open downloads
// of one server and DOWNLOADS_PER_USER in all through a panel process: past it 429
// ErrTooManyRequests, the node never asked; one ended (read to its end, or its reader gone) frees
// its place.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { openSync, closeSync, ftruncateSync, readdirSync, readlinkSync } from "node:fs";
import { eventually } from "../helpers/node";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";
import { DOWNLOADS_PER_SERVER, DOWNLOADS_PER_USER } from "../../server/live-proxy/open-streams";
import { unreadAnswer } from "../helpers/unread-answer";

let rig: ServedPanel;
let big: string;
let second: string;
let third: string;

beforeAll(async () => {
  rig = await servedPanelWithServer("download-flood");
  second = await rig.ctx.createServer("download-flood-2");
  third = await rig.ctx.createServer("download-flood-3");
  for (const id of [rig.id, second, third]) {
    const fd = openSync(rig.node.folder(id, "big.bin"), "w");
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
    const small = openSync(rig.node.folder(id, "small.bin"), "w");
    ftruncateSync(small, 1024);
    closeSync(small);
  }
  big = rig.node.folder(rig.id, "big.bin");
}, 60_000);
afterAll(() => rig?.stop());

/** How many times this process (the test node runs in it) holds `path` open. */
const opened = (path: string) =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;

/** A file's download that is never read (../helpers/unread-answer). */
const neverRead = (token: string, serverId: string, path = "big.bin") => unreadAnswer(rig.server.port!, `/proxy/daemon/server/${serverId}/file/${path}`, { cookie: `kiln=${token}` });

describe("downloads held open and never read", () => {
  test("one user holds a bounded number per server and in all; a freed place is taken again; another user is not held up", async () => {
    const user = await rig.ctx.userWith(rig.id, { viewServerFiles: true });
    for (const more of [second, third]) expect((await rig.ctx.panel.request(`/api/servers/${more}/user/${encodeURIComponent(user.email)}`, { token: rig.ctx.admin.token, method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ viewServerFiles: true }) })).status).toBeLessThan(300);
    const held: net.Socket[] = [];
    for (let i = 0; i < DOWNLOADS_PER_SERVER; i++) {
      const { socket, status } = await neverRead(user.token, rig.id);
      expect(status).toBe(200);
      held.push(socket);
    }
    await eventually(() => opened(big) === DOWNLOADS_PER_SERVER, 5000, "the node to hold each file open");
    // One more of that server: refused before the node is asked, as are a few after it.
    for (let i = 0; i < 5; i++) {
      const { socket, status } = await neverRead(user.token, rig.id);
      expect(status).toBe(429);
      socket.destroy();
    }
    expect(opened(big)).toBe(DOWNLOADS_PER_SERVER);
    // Another user on the same server is not held up by them.
    const other = await rig.ctx.userWith(rig.id, { viewServerFiles: true });
    const theirs = await fetch(`http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/file/small.bin`, { headers: { cookie: `kiln=${other.token}` } });
    expect(theirs.status).toBe(200);
    expect((await theirs.arrayBuffer()).byteLength).toBe(1024);
    // One reader gone frees its place.
    held.shift()!.destroy();
    await eventually(() => opened(big) === DOWNLOADS_PER_SERVER - 1, 5000, "the node to close the file of the reader gone");
    let again: Awaited<ReturnType<typeof neverRead>> | undefined;
    await eventually(async () => {
      again?.socket.destroy();
      again = await neverRead(user.token, rig.id);
      return again.status === 200;
    }, 5000, "a place freed");
    held.push(again!.socket);
    // In all, over the user's servers: the others take what is left of the bound in all.
    let answered = 0;
    for (const more of [second, third]) {
      for (let i = 0; i <= DOWNLOADS_PER_SERVER; i++) {
        const { socket, status } = await neverRead(user.token, more);
        if (status !== 200) {
          expect(status).toBe(429);
          socket.destroy();
          break;
        }
        answered++;
        held.push(socket);
      }
    }
    expect(answered).toBe(Math.min(2 * DOWNLOADS_PER_SERVER, DOWNLOADS_PER_USER - DOWNLOADS_PER_SERVER));
    for (const socket of held) socket.destroy();
    await eventually(() => opened(big) === 0, 5000, "the node to close every file");
  }, 60_000);
});
