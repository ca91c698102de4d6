// Attack: a logged-in SFTP user who asks and never reads. Reads are answered in pieces of up to
// 255 KiB (the limits the node announces, limits@openssh.com), so a client that keeps sending
// READs while its side of the channel stays shut would have the node hold every answer. The node
// holds at most MAX_QUEUED_ANSWERS and then ends the connection; other users go on. Extended
// requests the node does not offer, or with odd bodies, get a status and change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Socket } from "node:net";
import type { SFTPWrapper } from "ssh2";
import { MAX_TRANSFER_BYTES } from "../../daemon/sftp/openssh-limits";
import { MAX_QUEUED_ANSWERS } from "../../daemon/sftp/session";
import { loginAs } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { sftpRig, type SftpRig } from "../helpers/sftp";
import { call, ssh2Sftp } from "../helpers/ssh2-client";

const PASSWORD = "password123";
let email = "";
let rig: SftpRig;
let serverId = "";
let folder = "";

const connect = () => ssh2Sftp(rig.node.sftpPort, { email, serverId, password: PASSWORD });

/** Lets ssh2 send an extended request it would not send unasked, by making it believe the node offered it. */
function offered(sftp: SFTPWrapper, name: string, version = "1"): void {
  (sftp as unknown as { _extensions: Record<string, string> })._extensions[name] = version;
}

interface ClientChannel {
  _writeReqid: number;
  _requests: Record<number, { extended?: string; cb: (error?: Error, value?: unknown) => void }>;
  _protocol: { channelData(id: number, data: Buffer): void };
  outgoing: { id: number; window: number };
}

/** An extended request as raw bytes (any name, any body), answered through ssh2's own parsing. */
function rawExtended(sftp: SFTPWrapper, name: string, body: Buffer, expectAs?: string): Promise<unknown> {
  const channel = sftp as unknown as ClientChannel;
  const reqid = (channel._writeReqid = (channel._writeReqid + 1) >>> 0);
  const nameBytes = Buffer.from(name);
  const payload = Buffer.alloc(4 + 1 + 4 + 4 + nameBytes.length + body.length);
  payload.writeUInt32BE(payload.length - 4, 0);
  payload[4] = 200; // SSH_FXP_EXTENDED
  payload.writeUInt32BE(reqid, 5);
  payload.writeUInt32BE(nameBytes.length, 9);
  nameBytes.copy(payload, 13);
  body.copy(payload, 13 + nameBytes.length);
  return new Promise((resolve, reject) => {
    channel._requests[reqid] = { extended: expectAs, cb: (error, value) => (error ? reject(error) : resolve(value)) };
    channel.outgoing.window -= payload.length;
    channel._protocol.channelData(channel.outgoing.id, payload);
  });
}

beforeAll(async () => {
  rig = await sftpRig();
  serverId = await rig.createServer("unread answers");
  folder = rig.folder(serverId);
  // Only the right to read: the attack needs nothing more.
  ({ email } = await loginAs(rig.panel.db, []));
  const res = await rig.panel.request(`/api/servers/${serverId}/user/${email}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true, viewServerFiles: true }) });
  expect(res.status).toBe(204);
  writeFileSync(join(folder, "world.bin"), Buffer.alloc(8 * 1024 * 1024, 3));
}, 30_000);
afterAll(async () => {
  await rig?.stop();
});

describe("an SFTP client that asks without reading the answers", () => {
  test(`is disconnected once ${MAX_QUEUED_ANSWERS} answers wait; a new connection still works`, async () => {
    const { client, sftp } = await connect();
    const closed = new Promise<void>((resolve) => client.on("close", () => resolve()));
    client.on("error", () => undefined);
    const socket = (client as unknown as { _sock: Socket })._sock;
    let ended = false;
    try {
      const handle = await call<Buffer>((cb) => sftp.open("/world.bin", "r", cb));
      // Its side of the connection stops reading: the node's answers fill the channel's window
      // (2 MiB), then wait at the node.
      socket.pause();
      const target = Buffer.alloc(MAX_TRANSFER_BYTES);
      for (let i = 0; i < MAX_QUEUED_ANSWERS * 4; i++) sftp.read(handle, target, 0, MAX_TRANSFER_BYTES, (i % 32) * MAX_TRANSFER_BYTES, () => undefined);
      await Bun.sleep(1500);
      // Reading again shows what the node did meanwhile: it ended the connection.
      socket.resume();
      ended = await Promise.race([closed.then(() => true), Bun.sleep(5000).then(() => false)]);
    } finally {
      socket.destroy();
    }
    expect(ended).toBe(true);
    const again = await connect();
    try {
      expect((await call<{ size: number }>((cb) => again.sftp.stat("/world.bin", cb))).size).toBe(8 * 1024 * 1024);
    } finally {
      again.client.end();
    }
  }, 30_000);

  test("extended requests not offered, with a long name, or with a body the limits request has not, get a status and the channel goes on", async () => {
    const { client, sftp } = await connect();
    try {
      offered(sftp, "statvfs@openssh.com", "2");
      await expect(call((cb) => sftp.ext_openssh_statvfs("/", cb))).rejects.toThrow(/unsupported/i);
      offered(sftp, "hardlink@openssh.com");
      await expect(call((cb) => sftp.ext_openssh_hardlink("/world.bin", "/linked.bin", cb))).rejects.toThrow(/unsupported/i);
      offered(sftp, "fsync@openssh.com");
      const handle = await call<Buffer>((cb) => sftp.open("/world.bin", "r", cb));
      await expect(call((cb) => sftp.ext_openssh_fsync(handle, cb))).rejects.toThrow(/unsupported/i);
      await call((cb) => sftp.close(handle, cb));
      // Still serving, and nothing was made.
      expect((await call<{ size: number }>((cb) => sftp.stat("/world.bin", cb))).size).toBe(8 * 1024 * 1024);
      await expect(call((cb) => sftp.stat("/linked.bin", cb))).rejects.toThrow();
      // A name of 30,000 bytes, and the limits request with a body it does not have: a status, and the limits.
      await expect(rawExtended(sftp, "x".repeat(30_000), Buffer.alloc(0))).rejects.toThrow(/unsupported/i);
      expect(await rawExtended(sftp, "limits@openssh.com", Buffer.from("$(reboot)\n'\""), "limits@openssh.com")).toMatchObject({ maxReadLen: MAX_TRANSFER_BYTES, maxWriteLen: MAX_TRANSFER_BYTES });
      expect((await call<{ size: number }>((cb) => sftp.stat("/world.bin", cb))).size).toBe(8 * 1024 * 1024);
    } finally {
      client.end();
    }
  });
});
