// The SFTP server against a client that sends what OpenSSH's never would (ssh2's own client):
// oversized reads, too many handles, a FIFO, no shell or forwarding, and the node's disconnect
// route. The daemon answers each with a status and keeps serving.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, type SFTPWrapper } from "ssh2";
import { SCOPES } from "../core/scopes";
import { sftpUsername } from "../core/sftp/username";
import { createUser } from "../server/services/users";
import { MAX_HANDLES, MAX_READ_BYTES } from "../daemon/sftp/session";
import { MAX_TRANSFER_BYTES } from "../daemon/sftp/openssh-limits";
import { hasSftpClient, sftpRig, type SftpRig } from "./helpers/sftp";
import { call, ssh2Sftp } from "./helpers/ssh2-client";
import { tempDir } from "./helpers/process";

const PASSWORD = "password123";
let rig: SftpRig;
let serverId = "";
let folder = "";

const connect = () => ssh2Sftp(rig.node.sftpPort, { email: "proto@example.com", serverId, password: PASSWORD });

beforeAll(async () => {
  rig = await sftpRig();
  serverId = await rig.createServer("protocol");
  folder = rig.folder(serverId);
  await createUser(rig.panel.db, { email: "proto@example.com", username: "protouser", password: PASSWORD, scopes: [SCOPES.admin] });
}, 30_000);
afterAll(async () => {
  await rig?.stop();
});

describe("the SFTP server's limits", () => {
  test("a read asking for more than the maximum gets a short read", async () => {
    writeFileSync(join(folder, "big.bin"), Buffer.alloc(MAX_READ_BYTES * 3, 7));
    const { client, sftp } = await connect();
    try {
      const handle = await call<Buffer>((cb) => sftp.open("/big.bin", "r", cb));
      const buffer = Buffer.alloc(MAX_READ_BYTES * 3);
      // ssh2's client would split a big read itself; let it send one READ for all of it.
      (sftp as unknown as { _maxReadLen: number })._maxReadLen = MAX_READ_BYTES * 3;
      const bytes = await call<number>((cb) => sftp.read(handle, buffer, 0, MAX_READ_BYTES * 3, 0, (error, n) => cb(error, n)));
      expect(bytes).toBe(MAX_READ_BYTES);
      await call((cb) => sftp.close(handle, cb));
    } finally {
      client.end();
    }
  });

  test(`at most ${MAX_HANDLES} open handles per channel; closing one frees a place`, async () => {
    writeFileSync(join(folder, "small.txt"), "x");
    const { client, sftp } = await connect();
    try {
      const handles: Buffer[] = [];
      for (let i = 0; i < MAX_HANDLES; i++) handles.push(await call<Buffer>((cb) => sftp.open("/small.txt", "r", cb)));
      await expect(call<Buffer>((cb) => sftp.open("/small.txt", "r", cb))).rejects.toThrow();
      await call((cb) => sftp.close(handles.pop()!, cb));
      handles.push(await call<Buffer>((cb) => sftp.open("/small.txt", "r", cb)));
      for (const handle of handles) await call((cb) => sftp.close(handle, cb));
    } finally {
      client.end();
    }
  });

  test("a FIFO in the folder is refused without hanging the node; bad handles are a status", async () => {
    execFileSync("mkfifo", [join(folder, "pipe")]);
    const { client, sftp } = await connect();
    try {
      await expect(call<Buffer>((cb) => sftp.open("/pipe", "r", cb))).rejects.toThrow(/regular file|Failure/i);
      await expect(call((cb) => sftp.close(Buffer.from("nope"), cb))).rejects.toThrow();
      // A read the node cannot even start (an offset past what a file can have) is a status, and
      // the handle still closes.
      const handle = await call<Buffer>((cb) => sftp.open("/small.txt", "r", cb));
      await expect(call((cb) => sftp.read(handle, Buffer.alloc(10), 0, 10, 2 ** 62, (error, n) => cb(error, n)))).rejects.toThrow();
      await call((cb) => sftp.close(handle, cb));
      await expect(call((cb) => sftp.fstat(Buffer.alloc(4, 0xff), cb))).rejects.toThrow();
      // Still serving.
      expect((await call<{ size: number }>((cb) => sftp.stat("/small.txt", cb))).size).toBe(1);
    } finally {
      client.end();
    }
  });

  test("at most 4 channels at once per connection; a closed one frees its place", async () => {
    const { client, sftp } = await connect();
    try {
      const more = [sftp];
      for (let i = 0; i < 3; i++) more.push(await call<SFTPWrapper>((cb) => client.sftp(cb)));
      await expect(call<SFTPWrapper>((cb) => client.sftp(cb))).rejects.toThrow();
      const closed = new Promise((resolve) => more.pop()!.on("close", () => resolve(null)).end());
      await closed;
      const again = await call<SFTPWrapper>((cb) => client.sftp(cb));
      expect((await call<{ size: number }>((cb) => again.stat("/small.txt", cb))).size).toBe(1);
    } finally {
      client.end();
    }
  });

  test.skipIf(!hasSftpClient())("the OpenSSH client gets AES-GCM (no HMAC pass); a client with CTR alone still gets in", async () => {
    // The key exchange comes before the login, so no password is needed to see the choice.
    // Asynchronous: the node answers from this same process.
    const ssh = Bun.spawn(["ssh", "-v", "-oBatchMode=yes", "-oStrictHostKeyChecking=no", "-oUserKnownHostsFile=/dev/null", "-p", String(rig.node.sftpPort), "nobody@127.0.0.1", "true"], { stdin: "ignore", stderr: "pipe" });
    expect(await new Response(ssh.stderr).text()).toMatch(/kex: server->client cipher: aes(128|256)-gcm@openssh\.com/);
    const client = new Client();
    const negotiated = new Promise<{ cs: { cipher: string } }>((resolve) => client.on("handshake", resolve));
    const ready = new Promise<void>((resolve, reject) => client.on("ready", resolve).on("error", reject));
    client.connect({ host: "127.0.0.1", port: rig.node.sftpPort, username: sftpUsername("proto@example.com", serverId), password: PASSWORD, readyTimeout: 10_000, algorithms: { cipher: ["aes128-ctr"] } });
    try {
      expect((await negotiated).cs.cipher).toBe("aes128-ctr");
      await ready;
      const sftp = await call<SFTPWrapper>((cb) => client.sftp(cb));
      expect((await call<{ size: number }>((cb) => sftp.stat("/small.txt", cb))).size).toBe(1);
    } finally {
      client.end();
    }
  });

  test.skipIf(!hasSftpClient())("OpenSSH's client is told the limits (limits@openssh.com) and moves files in 255 KiB pieces, whole", async () => {
    const work = tempDir("kiln-sftp-limits-");
    const sample = randomBytes(3 * 1024 * 1024 + 12_345);
    writeFileSync(join(work, "sample.bin"), sample);
    writeFileSync(join(work, "batch.txt"), "put sample.bin up.bin\nget up.bin back.bin\n");
    // Asynchronous: the node answers from this same process.
    const proc = Bun.spawn(["sshpass", "-p", PASSWORD, "sftp", "-vvv", "-oBatchMode=no", "-oStrictHostKeyChecking=no", "-oUserKnownHostsFile=/dev/null", "-oPubkeyAuthentication=no", "-P", String(rig.node.sftpPort), "-b", "batch.txt", `${sftpUsername("proto@example.com", serverId)}@127.0.0.1`], { cwd: work, stdout: "ignore", stderr: "pipe" });
    const [log, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(log.match(/server upload\/download buffer sizes [^\r\n]*/)?.[0]).toBe(`server upload/download buffer sizes ${MAX_TRANSFER_BYTES} / ${MAX_TRANSFER_BYTES}; using ${MAX_TRANSFER_BYTES} / ${MAX_TRANSFER_BYTES}`);
    expect(readFileSync(join(folder, "up.bin")).equals(sample)).toBe(true);
    expect(readFileSync(join(work, "back.bin")).equals(sample)).toBe(true);
  });

  test("ssh2's client reads the same limits; other extended requests are unsupported, and the channel goes on", async () => {
    const { client, sftp } = await connect();
    try {
      const internals = sftp as unknown as { _maxReadLen: number; _maxWriteLen: number; _extensions: Record<string, string> };
      expect(internals._maxReadLen).toBe(MAX_TRANSFER_BYTES);
      expect(internals._maxWriteLen).toBe(MAX_TRANSFER_BYTES);
      // statvfs@openssh.com is not offered, so ssh2 would not send it: make it believe it was.
      internals._extensions["statvfs@openssh.com"] = "2";
      await expect(call((cb) => sftp.ext_openssh_statvfs("/", cb))).rejects.toThrow(/unsupported/i);
      expect((await call<{ size: number }>((cb) => sftp.stat("/small.txt", cb))).size).toBe(1);
    } finally {
      client.end();
    }
  });

  test("no shell, no command, no forwarding: only the sftp subsystem", async () => {
    const { client } = await connect();
    try {
      await expect(call((cb) => client.exec("id", cb))).rejects.toThrow();
      await expect(call((cb) => client.shell(cb))).rejects.toThrow();
      await expect(call((cb) => client.forwardOut("127.0.0.1", 0, "127.0.0.1", rig.node.port, cb))).rejects.toThrow();
    } finally {
      client.end();
    }
  });
});

describe("POST /daemon/sftp/disconnect", () => {
  test("needs the node token and a user or a server; answers how many sessions it ended", async () => {
    expect((await fetch(`${rig.node.url}/daemon/sftp/disconnect`, { method: "POST", body: "{}" })).status).toBe(401);
    expect((await rig.daemon.call("POST", "/daemon/sftp/disconnect", {})).status).toBe(400);
    const { client } = await connect();
    const closed = new Promise((resolve) => client.on("close", () => resolve(null)));
    expect(await rig.daemon.json("POST", "/daemon/sftp/disconnect", { serverId: "someone-else" })).toEqual({ ended: 0 });
    expect(await rig.daemon.json("POST", "/daemon/sftp/disconnect", { serverId })).toEqual({ ended: 1 });
    await closed;
  });
});
