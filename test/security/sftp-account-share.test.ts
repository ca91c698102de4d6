// Attack: a co-user who may only read files over SFTP (sftpServer, viewServerFiles) holds the node's SFTP connections. The node takes at
// most 256 connections (logged in or not), and a logged-in one stays as long as its client likes:
// one account's idle connections filled them and nobody, the servers' owners and administrators
// included, connected to the node's SFTP. Now one account holds at most MAX_CONNECTIONS_PER_USER
// logged-in connections on the node (daemon/sftp/server); a login past it is ended, and its
// connections closed give the places back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "ssh2";
import { MAX_CONNECTIONS_PER_USER } from "../../daemon/sftp/server";
import { loginAs } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { hasSftpClient, sftpRig, type SftpRig } from "../helpers/sftp";
import { ssh2Sftp } from "../helpers/ssh2-client";

const here = hasSftpClient();
let rig: SftpRig;
let serverId = "";
let coUser = { email: "" };

beforeAll(async () => {
  if (!here) return;
  rig = await sftpRig();
  serverId = await rig.createServer("sftp-account-share");
  coUser = await loginAs(rig.panel.db, []);
  const shared = await rig.panel.request(`/api/servers/${serverId}/user/${encodeURIComponent(coUser.email)}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true, viewServerFiles: true }) });
  expect(shared.status).toBeLessThan(300);
}, 30_000);
afterAll(() => rig?.stop());

const connect = (email: string) => ssh2Sftp(rig.node.sftpPort, { email, serverId, password: "password123" });

describe.skipIf(!here)("one account's SFTP connections on a node", () => {
  test("are bounded, and leave the server's administrator theirs", async () => {
    const held: Client[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS_PER_USER; i++) held.push((await connect(coUser.email)).client);
      // Past its share the co-user's login is ended; nothing is opened for it.
      const past = await connect(coUser.email).then(({ client }) => (held.push(client), "opened"), () => "refused");
      expect(past).toBe("refused");
      // The administrator logs in meanwhile.
      const { client } = await connect(rig.admin.email);
      client.end();
    } finally {
      for (const client of held) client.end();
    }
    // The co-user's connections closed, its places come back.
    await eventually(async () => connect(coUser.email).then(({ client }) => (client.end(), true), () => false), 10_000, "a login after the connections closed");
  }, 60_000);
});
