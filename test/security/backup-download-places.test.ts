// A server's backups are read by restic on the node, at most two at once per server and eight per
// node (daemon/backups/reader-slots), for all the server's users together. A download holds its
// restic for as long as its reader takes it (a byte a minute keeps it; only a minute of nothing
// ends it), and the panel let one account hold eight downloads of a server: a co-user with the
// backups right opened two and kept the owner and the administrators from downloading or
// browsing that server's backups (429) for as long as they liked. Now one account holds at most
// BACKUP_DOWNLOADS_PER_SERVER of a server's backup downloads (fewer than its readers) and
// BACKUP_DOWNLOADS_PER_USER in all (fewer than a node's): past it 429, the node never asked; its
// place comes back when the download ends or its reader goes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import net from "node:net";
import { eventually } from "../helpers/node";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";
import { BACKUP_DOWNLOADS_PER_SERVER } from "../../server/live-proxy/open-streams";
import { DEFAULT_READER_LIMITS } from "../../daemon/backups/reader-slots";
import { writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { unreadAnswer } from "../helpers/unread-answer";

let rig: ServedPanel;
let backup: string;

beforeAll(async () => {
  rig = await servedPanelWithServer("backup-download-places");
  // Enough data that a zip of it does not fit the sockets' buffers: the download stays open.
  writeFileSync(rig.node.folder(rig.id, "world.bin"), randomBytes(24 * 1024 * 1024));
  const made = await rig.ctx.panel.request(`/proxy/daemon/server/${rig.id}/backups?wait=true`, { token: rig.ctx.admin.token, method: "POST" });
  expect(made.status).toBe(201);
  backup = (await (await rig.ctx.panel.request(`/proxy/daemon/server/${rig.id}/backups`, { token: rig.ctx.admin.token })).json()).backups[0].id;
}, 120_000);
afterAll(() => rig?.stop());

/** A backup's download that is never read (../helpers/unread-answer). */
const neverRead = (token: string) => unreadAnswer(rig.server.port!, `/proxy/daemon/server/${rig.id}/backups/${backup}/download?format=zip`, { cookie: `kiln=${token}` });

test("a co-user holding backup downloads open leaves the server's owner and administrators theirs", async () => {
  expect(BACKUP_DOWNLOADS_PER_SERVER).toBeLessThan(DEFAULT_READER_LIMITS.perServer);
  const coUser = await rig.ctx.userWith(rig.id, { backups: true });
  const held: net.Socket[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < DEFAULT_READER_LIMITS.perServer; i++) {
    const { socket, status } = await neverRead(coUser.token);
    statuses.push(status);
    if (status === 200) held.push(socket);
    else socket.destroy();
  }
  // The administrator still downloads the backup whole.
  const theirs = await fetch(`http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/backups/${backup}/download?format=zip`, { headers: { cookie: `kiln=${rig.ctx.admin.token}` } });
  expect(theirs.status).toBe(200);
  expect((await theirs.arrayBuffer()).byteLength).toBeGreaterThan(20 * 1024 * 1024);
  // Past its places, refused before the node is asked.
  expect(statuses).toEqual([...Array(BACKUP_DOWNLOADS_PER_SERVER).fill(200), ...Array(DEFAULT_READER_LIMITS.perServer - BACKUP_DOWNLOADS_PER_SERVER).fill(429)]);
  // The co-user's reader gone, its place comes back.
  for (const socket of held) socket.destroy();
  let again: Awaited<ReturnType<typeof neverRead>> | undefined;
  await eventually(async () => {
    again?.socket.destroy();
    again = await neverRead(coUser.token);
    return again.status === 200;
  }, 10_000, "the co-user's place given back");
  again!.socket.destroy();
}, 120_000);
