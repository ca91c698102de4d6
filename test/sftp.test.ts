// SFTP end to end: the real OpenSSH client (with sshpass for the password) against a real node
// that asks a real panel about logins. Files, the jail, who may log in, the host key, the login
// throttle, and sessions ended when access changes.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { SCOPES } from "../core/scopes";
import { createUser } from "../server/services/users";
import { LoginThrottle } from "../server/services/auth/throttle";
import { hostKeyPath } from "../daemon/sftp";
import { hasSftpClient, openSftp, sftpBatch, sftpRig, type SftpRig } from "./helpers/sftp";
import { jsonInit } from "./helpers/panel-node";
import { createProvider } from "../server/services/sso/providers";
import { withdrawProvider } from "../server/services/sso/grants";
import { tempDir } from "./helpers/process";
import { writeAsProcess } from "./helpers/process-names";
import { nameFromBytes } from "../core/files/raw-name";

const PASSWORD = "password123";
let rig: SftpRig;
let serverId = "";
let folder = "";
let counter = 0;

/** A fresh account; `flags` on the test server are given through the API, as an admin would. */
async function account(options: { flags?: Record<string, boolean>; admin?: boolean; otp?: boolean } = {}) {
  counter++;
  const email = `sftp${counter}@example.com`;
  const { id } = await createUser(rig.panel.db, { email, username: `sftpuser${counter}`, password: PASSWORD, scopes: options.admin ? [SCOPES.admin] : [] });
  if (options.flags) {
    const res = await rig.panel.request(`/api/servers/${serverId}/user/${email}`, { token: rig.admin.token, ...jsonInit("PUT", options.flags) });
    expect(res.status).toBe(204);
  }
  if (options.otp) await rig.panel.db.update(schema.users).set({ otpEnabled: true, otpSecret: "JBSWY3DPEHPK3PXP" }).where(eq(schema.users.id, id)).run();
  return { id, email, serverId, password: PASSWORD };
}

const sftp = (login: { email: string; serverId: string; password: string }, commands: string[], cwd?: string) => sftpBatch(rig.node.sftpPort, login, commands, cwd);

describe.skipIf(!hasSftpClient())("SFTP", () => {
  beforeAll(async () => {
    rig = await sftpRig();
    serverId = await rig.createServer("sftp files");
    folder = rig.folder(serverId);
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
  });
  // Every test logs in from 127.0.0.1: a fresh throttle each, so one test's failures stay its own.
  beforeEach(() => {
    rig.panel.deps.throttle = new LoginThrottle();
  });

  test("upload, list, download (same bytes), folders, rename and remove", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true, putServerFiles: true } });
    const local = tempDir("kiln-sftp-local-");
    const bytes = randomBytes(5 * 1024 * 1024 + 123);
    writeFileSync(join(local, "world.bin"), bytes);
    const result = await sftp(
      login,
      ["mkdir maps", "put world.bin maps/world.bin", "ls -l maps", "rename maps/world.bin maps/renamed.bin", "-rename motd.txt maps/renamed.bin", "get maps/renamed.bin back.bin", "chmod 600 maps/renamed.bin", "ls -l maps"],
      local,
    );
    expect(result.code).toBe(0);
    // The listing's long lines are the node's, like ls -l: mode, links, owner, group, size, date, name.
    expect(result.out).toMatch(/\n-rw-r--r-- +1 \d+ +\d+ +5243003 \w{3} [ \d]\d \d\d:\d\d world\.bin\n/);
    expect(result.out).toMatch(/\n-rw------- .* renamed\.bin\n/);
    // SFTP version 3 renames never replace what is there (OpenSSH shows the status, not our message).
    expect(result.err).toContain('remote rename "/motd.txt" to "/maps/renamed.bin": Failure');
    expect(readFileSync(join(local, "back.bin")).equals(bytes)).toBe(true);
    expect(readFileSync(join(folder, "maps", "renamed.bin")).equals(bytes)).toBe(true);
    expect(readFileSync(join(folder, "motd.txt"), "utf8")).toBe("hello world");

    const cleanup = await sftp(login, ["-rmdir maps", "rm maps/renamed.bin", "rmdir maps", "ls"]);
    expect(cleanup.code).toBe(0);
    expect(cleanup.err).toContain('remote rmdir "/maps": Failure');
    expect(existsSync(join(folder, "maps"))).toBe(false);
  }, 30_000);

  test("the session is jailed: '..' stays at '/', links out are refused and cannot be used", async () => {
    const login = await account({ admin: true });
    // Links planted on disk (by the game, say): to a file and a folder outside, and one climbing out.
    // Writes are only tried against the test's own folder, never against the host's files.
    const outside = tempDir("kiln-sftp-outside-");
    writeFileSync(join(outside, "secret.txt"), "not for you", { mode: 0o640 });
    symlinkSync("/etc/passwd", join(folder, "passwd"));
    symlinkSync(join(outside, "secret.txt"), join(folder, "leak"));
    symlinkSync(outside, join(folder, "escape"));
    symlinkSync("../../..", join(folder, "up"));
    const local = tempDir("kiln-sftp-local-");
    writeFileSync(join(local, "payload.txt"), "pwned");
    try {
      const result = await sftp(
        login,
        [
          "cd ..",
          "cd ../..",
          "pwd",
          "-get /../../etc/passwd passwd1",
          "-get ../../../etc/passwd passwd2",
          "-get passwd passwd3",
          "-get up/etc/passwd passwd4",
          "-get leak secret1",
          "-get escape/secret.txt secret2",
          "-put payload.txt escape/new.txt",
          "-put payload.txt leak",
          "-ls escape",
          "-chmod 777 leak",
          "-chmod 777 escape",
          "-symlink /etc etc-link",
          "-symlink ../../ up2",
          "-symlink ../outside.txt up3",
          "ls",
        ],
        local,
      );
      expect(result.code).toBe(0);
      expect(result.out).toContain("Remote working directory: /\n");
      for (const name of ["passwd1", "passwd2", "passwd3", "passwd4", "secret1", "secret2"]) expect(existsSync(join(local, name))).toBe(false);
      expect(existsSync(join(outside, "new.txt"))).toBe(false);
      expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("not for you");
      expect(statSync(join(outside, "secret.txt")).mode & 0o777).toBe(0o640);
      expect(statSync(outside).mode & 0o777).not.toBe(0o777);
      for (const refusal of ['dest open "/leak": Permission denied', 'dest open "/escape/new.txt": Permission denied', 'remote setstat "/leak": Permission denied', 'remote setstat "/escape": Permission denied']) {
        expect(result.err).toContain(refusal);
      }
      // Nothing of the outside folder is listed (the command lines themselves are echoed).
      expect(result.out.split("\n").filter((line) => !line.startsWith("sftp>")).join("\n")).not.toContain("secret");
      for (const name of ["etc-link", "up2", "up3"]) expect(existsSync(join(folder, name))).toBe(false);
      expect(result.err).toContain('remote symlink file "/etc" to "/etc-link": Permission denied');
      expect(result.err).toContain('remote symlink file "../../" to "/up2": Permission denied');
      // The planted links are listed (as links), and removing one removes the link only.
      expect(result.out).toContain("leak");
      const removed = await sftp(login, ["rm leak", "rm escape"]);
      expect(removed.code).toBe(0);
      expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("not for you");
    } finally {
      await sftp(login, ["-rm leak", "-rm escape", "-rm up", "-rm passwd"]);
    }
  }, 30_000);

  test("a file with two names (a hard link, maybe to a file outside) is neither read, truncated, written nor chmodded", async () => {
    const login = await account({ admin: true });
    const outside = tempDir("kiln-sftp-outside-");
    writeFileSync(join(outside, "host.txt"), "host file", { mode: 0o640 });
    linkSync(join(outside, "host.txt"), join(folder, "two-names.txt"));
    const local = tempDir("kiln-sftp-local-");
    writeFileSync(join(local, "payload.txt"), "pwned");
    try {
      const result = await sftp(login, ["-get two-names.txt got.txt", "-put payload.txt two-names.txt", "-chmod 777 two-names.txt", "ls"], local);
      expect(result.code).toBe(0);
      expect(existsSync(join(local, "got.txt"))).toBe(false);
      for (const refusal of ['remote open "/two-names.txt": Permission denied', 'dest open "/two-names.txt": Permission denied', 'remote setstat "/two-names.txt": Permission denied']) expect(result.err).toContain(refusal);
      expect(readFileSync(join(outside, "host.txt"), "utf8")).toBe("host file");
      expect(statSync(join(outside, "host.txt")).mode & 0o777).toBe(0o640);
    } finally {
      await sftp(login, ["-rm two-names.txt"]);
    }
  }, 30_000);

  test("a name that is not UTF-8, made by the server's process, is listed, read and removed by its wire form", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true, putServerFiles: true } });
    const local = tempDir("kiln-sftp-raw-");
    const bytes = Buffer.from([0x72, 0x61, 0x77, 0xff, 0x2e, 0x6c, 0x6f, 0x67]); // "raw\xFF.log"
    await writeAsProcess(folder, [{ path: bytes, content: "hidden no more" }]);
    const wire = nameFromBytes(bytes);
    const result = await sftp(login, ["ls -1", `get "${wire}" got.log`, `rm "${wire}"`], local);
    expect(result.code).toBe(0);
    // OpenSSH's client shows the name as the node sends it: the wire form, as UTF-8 (ssh2 sends names as text).
    expect(result.out).toContain(`\n${wire}\n`);
    expect(readFileSync(join(local, "got.log"), "utf8")).toBe("hidden no more");
    expect(readdirSync(folder, { encoding: "buffer" }).some((name) => name.equals(bytes))).toBe(false);
  }, 30_000);

  test("a link made over SFTP (pointing inside) is the same link for the file API and the socket", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true, putServerFiles: true } });
    const result = await sftp(login, ["mkdir docs", "symlink ../motd.txt docs/greeting", "ls -l docs"]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/lrwxrwxrwx .* greeting\n/);
    // Read through the node's HTTP file API and listed through its socket: the target's content and size.
    const read = await rig.daemon.call("GET", `/daemon/server/${serverId}/file/docs/greeting`);
    expect(await read.text()).toBe("hello world");
    const listing = await rig.daemon.json("GET", `/daemon/server/${serverId}/file/docs`);
    expect(listing.files).toEqual([expect.objectContaining({ name: "greeting", isFile: true, size: 11 })]);
    const socketUrl = `${rig.node.url.replace("http", "ws")}/daemon/socket/${serverId}`;
    const ws = new WebSocket(socketUrl, { headers: rig.daemon.headers("GET", socketUrl) } as any);
    const message = new Promise<any>((resolve) => {
      ws.onmessage = (e) => {
        const parsed = JSON.parse(String(e.data));
        if (parsed.type === "file") resolve(parsed);
      };
    });
    await new Promise((resolve) => (ws.onopen = resolve));
    ws.send(JSON.stringify({ type: "file", data: { action: "get", path: "docs" } }));
    expect((await message).data.files).toEqual([expect.objectContaining({ name: "greeting", isFile: true, size: 11 })]);
    ws.close();
    await sftp(login, ["rm docs/greeting", "rmdir docs"]);
  }, 30_000);

  test("who may log in: sftpServer with viewServerFiles, or an admin, with the account password (two-factor or not)", async () => {
    const withFlag = await account({ flags: { sftpServer: true, viewServerFiles: true } });
    const withoutFlag = await account({ flags: { viewServerFiles: true, putServerFiles: true } });
    // SFTP reaches the files: without the right to view them there is nothing it may do.
    const sftpOnly = await account({ flags: { sftpServer: true, putServerFiles: true } });
    const admin = await account({ admin: true });
    const twoFactor = await account({ flags: { sftpServer: true, viewServerFiles: true }, otp: true });
    const stranger = await account();
    // The two-factor account really has two-factor: the panel login asks for a code.
    const panelLogin = await rig.panel.request("/auth/login", jsonInit("POST", { email: twoFactor.email, password: PASSWORD }));
    expect(await panelLogin.json()).toEqual({ otpNeeded: true });

    for (const login of [withFlag, admin, twoFactor]) {
      const ok = await sftp(login, ["pwd"]);
      expect(`${login.email}: ${ok.code}`).toBe(`${login.email}: 0`);
    }
    const refused = [
      { ...withFlag, password: "wrong-password" },
      withoutFlag,
      sftpOnly,
      stranger,
      { ...admin, serverId: "nosuchid" },
      { ...admin, email: `${admin.email}${serverId}`, serverId: "" },
    ];
    for (const login of refused) {
      const no = await sftp(login, ["pwd"]);
      expect(no.code).not.toBe(0);
      expect(no.out).not.toContain("Remote working directory");
    }
  }, 60_000);

  test("failed logins are throttled like panel logins, per account and address", async () => {
    // The panel's policy, with shorter waits: locked after 4 failures.
    rig.panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 2, lockAfter: 4, lockMs: 60_000, delayStepMs: 50, maxDelayMs: 200 });
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true } });
    for (let i = 0; i < 4; i++) expect((await sftp({ ...login, password: `wrong-${i}` }, ["pwd"])).code).not.toBe(0);
    // Locked now: the right password is refused too, over SFTP and on the panel's login.
    const locked = await sftp(login, ["pwd"]);
    expect(locked.code).not.toBe(0);
    expect(locked.out).not.toContain("Remote working directory");
    const panelLogin = await rig.panel.request("/auth/login", jsonInit("POST", { email: login.email, password: PASSWORD }));
    expect(panelLogin.status).toBe(429);
  }, 60_000);

  test("the host key is made once, kept owner-only, and the same after a restart", async () => {
    const keyFile = hostKeyPath(rig.config.dataDir);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const scan = async () => {
      const proc = Bun.spawn(["ssh-keyscan", "-p", String(rig.node.sftpPort), "-t", "ed25519", "127.0.0.1"], { stdout: "pipe", stderr: "pipe" });
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return out.trim();
    };
    const before = await scan();
    expect(before).toContain("ssh-ed25519 ");
    const file = readFileSync(keyFile);
    await rig.restartNode();
    expect(await scan()).toBe(before);
    expect(readFileSync(keyFile).equals(file)).toBe(true);
    const login = await account({ admin: true });
    expect((await sftp(login, ["pwd"])).code).toBe(0);
  }, 30_000);

  test("a panel that does not answer means no login", async () => {
    const login = await account({ admin: true });
    await rig.setPanelUp(false);
    try {
      const no = await sftp(login, ["pwd"]);
      expect(no.code).not.toBe(0);
    } finally {
      await rig.setPanelUp(true);
    }
    expect((await sftp(login, ["pwd"])).code).toBe(0);
  }, 30_000);
});

describe.skipIf(!hasSftpClient())("SFTP sessions end when access changes", () => {
  beforeAll(async () => {
    rig = await sftpRig();
    serverId = await rig.createServer("sftp sessions");
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const ends = async (login: { email: string; serverId: string; password: string }, change: () => Promise<unknown>, withinMs = 3_000) => {
    const session = await openSftp(rig.node.sftpPort, login);
    expect(await session.endedWithin(200)).toBe(false);
    await change();
    expect(await session.endedWithin(withinMs)).toBe(true);
  };

  test("the sftpServer flag removed, then the account removed from the server", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true } });
    await ends(login, () => rig.panel.request(`/api/servers/${serverId}/user/${login.email}`, { token: rig.admin.token, ...jsonInit("PUT", { viewServerFiles: true }) }));
    expect((await sftp(login, ["pwd"])).code).not.toBe(0);
    await rig.panel.request(`/api/servers/${serverId}/user/${login.email}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true, viewServerFiles: true }) });
    await ends(login, () => rig.panel.request(`/api/servers/${serverId}/user/${login.email}`, { token: rig.admin.token, method: "DELETE" }));
  }, 30_000);

  test("putServerFiles or viewServerFiles removed: a session must not keep rights the user lost", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true, putServerFiles: true } });
    await ends(login, () => rig.panel.request(`/api/servers/${serverId}/user/${login.email}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true, viewServerFiles: true }) }));
    // Logged in again, read-only now; then without viewServerFiles it ends too.
    await ends(login, () => rig.panel.request(`/api/servers/${serverId}/user/${login.email}`, { token: rig.admin.token, ...jsonInit("PUT", { sftpServer: true }) }));
    expect((await sftp(login, ["pwd"])).code).not.toBe(0);
  }, 30_000);

  test("the password or the email changed", async () => {
    const login = await account({ flags: { sftpServer: true, viewServerFiles: true } });
    await ends(login, () => rig.panel.request(`/api/users/${login.id}`, { token: rig.admin.token, ...jsonInit("POST", { password: "another-password" }) }));
    const renewed = { ...login, password: "another-password" };
    expect((await sftp(renewed, ["pwd"])).code).toBe(0);
    await ends(renewed, () => rig.panel.request(`/api/users/${login.id}`, { token: rig.admin.token, ...jsonInit("POST", { email: `moved-${login.email}` }) }));
  }, 30_000);

  test("the admin scope removed, and the account deleted", async () => {
    const login = await account({ admin: true });
    await ends(login, () => rig.panel.request(`/api/users/${login.id}/perms`, { token: rig.admin.token, ...jsonInit("PUT", { scopes: [SCOPES.usersView] }) }));
    expect((await sftp(login, ["pwd"])).code).not.toBe(0);
    const other = await account({ flags: { sftpServer: true, viewServerFiles: true } });
    await ends(other, () => rig.panel.request(`/api/users/${other.id}`, { token: rig.admin.token, method: "DELETE" }));
  }, 30_000);

  // The admin scope held through a role goes three ways: the role taken from the account, the
  // scope taken out of the role, the role deleted. Each ends the session as taking the scope does.
  test("the admin scope held through a role: the role taken away, changed, or deleted", async () => {
    const roleAdmin = async (name: string) => {
      const login = await account();
      const role = await (await rig.panel.request("/api/roles", { token: rig.admin.token, ...jsonInit("POST", { name, scopes: [SCOPES.admin] }) })).json();
      expect((await rig.panel.request(`/api/users/${login.id}/roles`, { token: rig.admin.token, ...jsonInit("PUT", { roles: [role.id] }) })).status).toBe(200);
      return { login, role };
    };
    const taken = await roleAdmin("admins-taken");
    await ends(taken.login, () => rig.panel.request(`/api/users/${taken.login.id}/roles`, { token: rig.admin.token, ...jsonInit("PUT", { roles: [] }) }));
    const changed = await roleAdmin("admins-changed");
    await ends(changed.login, () => rig.panel.request(`/api/roles/${changed.role.id}`, { token: rig.admin.token, ...jsonInit("PUT", { name: "admins-changed", scopes: [SCOPES.usersView] }) }));
    const deleted = await roleAdmin("admins-deleted");
    await ends(deleted.login, () => rig.panel.request(`/api/roles/${deleted.role.id}`, { token: rig.admin.token, method: "DELETE" }));
    expect((await sftp(deleted.login, ["pwd"])).code).not.toBe(0);
  }, 40_000);

  test("the admin scope a sign-in rule granted, taken back with the provider", async () => {
    await createProvider(rig.panel.db, { scopes: [SCOPES.admin] }, { id: "community", name: "Community", type: "oidc", issuer: "https://id.example", clientId: "a", clientSecret: "b" });
    const login = await account();
    await rig.panel.db.insert(schema.userScopes).values({ userId: login.id, scope: SCOPES.admin }).run();
    await rig.panel.db.insert(schema.ssoGrants).values({ userId: login.id, providerId: "community", rule: "admins", kind: "scope", value: SCOPES.admin }).run();
    await ends(login, () => withdrawProvider(rig.panel.db, "community", [], login.id));
    expect((await sftp(login, ["pwd"])).code).not.toBe(0);
  }, 30_000);

  test("the server deleted, through the panel or on the node alone", async () => {
    const login = await account({ admin: true });
    const first = await rig.createServer("doomed one");
    await ends({ ...login, serverId: first }, () => rig.panel.request(`/api/servers/${first}`, { token: rig.admin.token, method: "DELETE" }));
    const second = await rig.createServer("doomed two");
    // The node notices on its own (it looks every 5 s).
    await ends({ ...login, serverId: second }, () => rig.daemon.call("DELETE", `/daemon/server/${second}`), 8_000);
  }, 40_000);
});

describe.skipIf(!hasSftpClient())("SFTP with a local folder of many entries", () => {
  test("a listing larger than one READDIR page arrives whole", async () => {
    rig = await sftpRig();
    try {
      serverId = await rig.createServer("many files");
      const many = rig.folder(serverId, "many");
      mkdirSync(many);
      for (let i = 0; i < 700; i++) writeFileSync(join(many, `file-${String(i).padStart(4, "0")}-${"x".repeat(60)}.txt`), "");
      const login = await account({ admin: true });
      const result = await sftp(login, ["ls -1 many"]);
      expect(result.code).toBe(0);
      expect(result.out.split("\n").filter((line) => line.includes("file-")).length).toBe(700);
    } finally {
      await rig.stop();
    }
  }, 30_000);
});
