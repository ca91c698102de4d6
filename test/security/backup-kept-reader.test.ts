// A server's backups are read by restic on the node, at most two readers per server and eight per
// node for everyone (daemon/backups/reader-slots), and a download holds its reader for as long as
// it takes a byte a minute. The panel bounds one account to one backup download of a server, but
// two co-users with the backups right (or one person's two shared accounts) held the server's two
// readers between them, and the owner's download or browse was 429 for as long as they liked;
// accounts with the backups right on enough servers held the node's eight, and every owner's was.
// Now the node keeps one reader of each server for the calls the panel marks as its owner's or an
// administrator's (core/contract's keptForOwners, OWNERS_CALL_HEADER), apart from the node's pool.
import { afterAll, beforeAll, expect, test } from "bun:test";
import net from "node:net";
import { writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import { hasRestic } from "../helpers/require-part";
import { DEFAULT_READER_LIMITS } from "../../daemon/backups/reader-slots";
import { OWNERS_CALL_HEADER } from "../../core/contract";
import { unreadAnswer } from "../helpers/unread-answer";

const here = hasRestic();
let rig: ServedPanel;
/** Two servers, each owned by a plain account (not an administrator), each with one backup. */
const servers: { id: string; owner: { token: string; email: string }; backup: string }[] = [];

async function ownedServer(name: string): Promise<(typeof servers)[number]> {
  const owner = await loginAs(rig.ctx.panel.db, []);
  const id = await rig.ctx.createServer(name, { user: owner.email });
  // Enough data that a zip of it does not fit the sockets' buffers: an unread download stays open.
  writeFileSync(rig.node.folder(id, "world.bin"), randomBytes(24 * 1024 * 1024));
  const made = await rig.ctx.panel.request(`/proxy/daemon/server/${id}/backups?wait=true`, { token: owner.token, method: "POST" });
  expect(made.status).toBe(201);
  const backup = (await (await rig.ctx.panel.request(`/proxy/daemon/server/${id}/backups`, { token: owner.token })).json()).backups[0].id;
  return { id, owner, backup };
}

beforeAll(async () => {
  if (!here) return;
  rig = await servedPanelWithServer("kept-reader");
  servers.push(await ownedServer("kept-reader-a"), await ownedServer("kept-reader-b"));
}, 180_000);
afterAll(() => rig?.stop());

const url = (s: (typeof servers)[number], what: string) => `http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${s.id}/backups/${s.backup}/${what}`;

/** A backup's download that is never read (../helpers/unread-answer). */
const neverRead = (s: (typeof servers)[number], token: string) => unreadAnswer(rig.server.port!, `/proxy/daemon/server/${s.id}/backups/${s.backup}/download?format=zip`, { cookie: `kiln=${token}` });

async function wholeDownload(s: (typeof servers)[number], token: string): Promise<{ status: number; bytes: number }> {
  const res = await fetch(url(s, "download?format=zip"), { headers: { cookie: `kiln=${token}` } });
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

test.skipIf(!here)("co-users holding a server's readers leave its owner and administrators one", async () => {
  const [a] = servers as [(typeof servers)[number]];
  const coUsers = [await rig.ctx.userWith(a.id, { backups: true }), await rig.ctx.userWith(a.id, { backups: true }), await rig.ctx.userWith(a.id, { backups: true })];
  const held: net.Socket[] = [];
  try {
    // Two co-users hold the server's two readers; a third co-user is refused.
    for (const coUser of coUsers.slice(0, DEFAULT_READER_LIMITS.perServer)) {
      const { socket, status } = await neverRead(a, coUser.token);
      held.push(socket);
      expect(status).toBe(200);
    }
    const third = await fetch(url(a, "files?path="), { headers: { cookie: `kiln=${coUsers[2]!.token}` } });
    expect(third.status).toBe(429);
    // The owner downloads the backup whole and browses it; so does an administrator.
    const owners = await wholeDownload(a, a.owner.token);
    expect(owners.status).toBe(200);
    expect(owners.bytes).toBeGreaterThan(20 * 1024 * 1024);
    expect((await fetch(url(a, "files?path="), { headers: { cookie: `kiln=${a.owner.token}` } })).status).toBe(200);
    expect((await rig.ctx.page(`/server/${a.id}?tab=backups&browse=${a.backup}&path=`, a.owner.token)).html).toContain("world.bin");
    expect((await fetch(url(a, "files?path="), { headers: { cookie: `kiln=${rig.ctx.admin.token}` } })).status).toBe(200);
    // The kept reader is the owner's and administrators' only: a co-user's request never takes it,
    // even saying it is theirs (the panel passes no caller's header on).
    expect((await fetch(url(a, "files?path="), { headers: { cookie: `kiln=${coUsers[2]!.token}`, [OWNERS_CALL_HEADER]: "1" } })).status).toBe(429);
  } finally {
    for (const socket of held) socket.destroy();
  }
}, 120_000);

test.skipIf(!here)("co-users holding the node's readers leave another server's owner one", async () => {
  const [a, b] = servers as [(typeof servers)[number], (typeof servers)[number]];
  const readers = rig.node.node.backups.readers;
  // A node of two readers: two co-users of server A hold them all.
  readers.limits = { perServer: 2, perNode: 2 };
  const held: net.Socket[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const coUser = await rig.ctx.userWith(a.id, { backups: true });
      const { socket, status } = await neverRead(a, coUser.token);
      held.push(socket);
      expect(status).toBe(200);
    }
    // A co-user of server B is refused: the node's readers are all held.
    const coUserOfB = await rig.ctx.userWith(b.id, { backups: true });
    expect((await fetch(url(b, "files?path="), { headers: { cookie: `kiln=${coUserOfB.token}` } })).status).toBe(429);
    // B's owner still downloads its backup.
    const owners = await wholeDownload(b, b.owner.token);
    expect(owners.status).toBe(200);
    expect(owners.bytes).toBeGreaterThan(20 * 1024 * 1024);
  } finally {
    for (const socket of held) socket.destroy();
    readers.limits = { ...DEFAULT_READER_LIMITS };
  }
}, 120_000);
