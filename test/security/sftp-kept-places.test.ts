// Attack: accounts with the SFTP right fill the node's logged-in SFTP connections. One account
// holds at most MAX_CONNECTIONS_PER_USER of them, but 26 accounts (one person's free accounts, each
// given a server, or a server's co-users) held the node's 256 and nobody else, the servers' owners
// and administrators included, got in; and a connection that stopped answering after logging in
// held its place for good (ssh2 ended it after unanswered keepalives, but its socket stayed open
// as long as the client never closed its side). Now logged-in connections share the node's places
// and each server keeps some for the logins the panel says are its owner's or an administrator's
// (daemon/sftp/server's SftpPlaces, ../daemon/kept-places); a silent connection is ended after
// three unanswered keepalives and its socket destroyed soon after, which gives its place back.
// The node's places are made small here (the rig's sftpLimits) so that a few connections fill them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Socket } from "node:net";
import type { Client } from "ssh2";
import { MAX_CONNECTIONS_PER_USER } from "../../daemon/sftp/server";
import { loginAs } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { hasSftpClient, sftpRig, type SftpRig } from "../helpers/sftp";
import { ssh2Sftp } from "../helpers/ssh2-client";

const here = hasSftpClient();
const PLACES = { loggedIn: 4, keptPerServer: 2, keptLoggedIn: 4, keepaliveMs: 300, closeGraceMs: 600 };
let rig: SftpRig;
let serverId = "";
let owner = { email: "" };
const coUsers: { email: string }[] = [];

beforeAll(async () => {
  if (!here) return;
  rig = await sftpRig(PLACES);
  owner = await loginAs(rig.panel.db, []);
  const made = await rig.panel.request("/api/servers", { token: rig.admin.token, ...jsonInit("POST", { name: "sftp-kept-places", node: rig.nodeId, template: "echo", environment: { type: "standard" }, user: owner.email }) });
  expect(made.status).toBe(201);
  serverId = (await made.json()).id;
  for (let i = 0; i < 3; i++) {
    const coUser = await loginAs(rig.panel.db, []);
    const shared = await rig.panel.request(`/api/servers/${serverId}/user/${encodeURIComponent(coUser.email)}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true, viewServerFiles: true }) });
    expect(shared.status).toBeLessThan(300);
    coUsers.push(coUser);
  }
}, 60_000);
afterAll(() => rig?.stop());

const connect = (email: string) => ssh2Sftp(rig.node.sftpPort, { email, serverId, password: "password123" });
const tryConnect = (email: string, held: Client[]) => connect(email).then(({ client }) => (held.push(client), "opened"), () => "refused");

describe.skipIf(!here)("the node's logged-in SFTP connections", () => {
  test("keep places for the server's owner and administrators", async () => {
    const held: Client[] = [];
    try {
      // Two co-users hold the node's places between them; a third co-user is refused.
      for (let i = 0; i < PLACES.loggedIn; i++) held.push((await connect(coUsers[i % 2]!.email)).client);
      expect(await tryConnect(coUsers[2]!.email, held)).toBe("refused");
      // The owner and an administrator log in meanwhile, on the server's kept places.
      expect(await tryConnect(owner.email, held)).toBe("opened");
      expect(await tryConnect(rig.admin.email, held)).toBe("opened");
      // The kept places are the server's, not a way past the node's: its third owners' login is refused.
      expect(await tryConnect(owner.email, held)).toBe("refused");
    } finally {
      for (const client of held) client.end();
    }
    // The co-users' connections closed, their places come back.
    await eventually(async () => connect(coUsers[2]!.email).then(({ client }) => (client.end(), true), () => false), 10_000, "a co-user's login after the connections closed");
  }, 60_000);

  test("a logged-in connection that stops answering gives its place back", async () => {
    const silent: Client[] = [];
    try {
      // One account's connections, each then never read again: the node's keepalives and its goodbye go unanswered.
      for (let i = 0; i < MAX_CONNECTIONS_PER_USER && silent.length < PLACES.loggedIn; i++) silent.push((await connect(coUsers[0]!.email)).client);
      for (const client of silent) (client as unknown as { _sock: Socket })._sock.pause();
      // The owner's kept places aside, the node is full for everyone else now...
      const held: Client[] = [];
      expect(await tryConnect(coUsers[1]!.email, held)).toBe("refused");
      // ...until the silent connections are ended and their sockets closed.
      await eventually(async () => connect(coUsers[1]!.email).then(({ client }) => (client.end(), true), () => false), 15_000, "a login after the silent connections were dropped");
    } finally {
      for (const client of silent) (client as unknown as { _sock: Socket })._sock.destroy();
    }
  }, 60_000);
});
