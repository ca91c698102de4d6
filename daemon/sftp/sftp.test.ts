// The SFTP layer's small pure parts: client paths to jail paths, open flags, ls lines, statuses,
// which addresses count as one for the connection caps, and the caps in the node's configuration.
import { describe, expect, test } from "bun:test";
import { constants, writeFileSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import { parseSftpUsername, sftpUsername } from "../../core/sftp/username";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDir } from "../../test/helpers/process";
import { loadDaemonConfig, DaemonConfigError } from "../config";
import { longname, modeString } from "./attrs";
import { addressKey } from "./address";
import { hasGcm } from "./cipher-offer";
import { openFlags, opensForChange } from "./open-flags";
import { toClientPath, toJailPath } from "./paths";
import { STATUS_CODE, toStatus } from "./status";

describe("SFTP paths (a chroot: '/' is the server's folder)", () => {
  test("absolute and relative paths, '..' never above '/'", () => {
    expect(toJailPath("/")).toBe("");
    expect(toJailPath(".")).toBe("");
    expect(toJailPath("")).toBe("");
    expect(toJailPath("/world/region/")).toBe("world/region");
    expect(toJailPath("world//level.dat")).toBe("world/level.dat");
    expect(toJailPath("/..")).toBe("");
    expect(toJailPath("/../../etc/passwd")).toBe("etc/passwd");
    expect(toJailPath("a/../../b")).toBe("b");
    expect(toClientPath("")).toBe("/");
    expect(toClientPath("world/x")).toBe("/world/x");
  });

  test("a NUL byte is refused as outside", () => {
    expect(() => toJailPath("a\0b")).toThrow(KilnError);
  });
});

describe("SFTP usernames", () => {
  test("email#serverId, split at the last '#'", () => {
    expect(sftpUsername("a@b.c", "1234abcd")).toBe("a@b.c#1234abcd");
    expect(parseSftpUsername("a@b.c#1234abcd")).toEqual({ email: "a@b.c", serverId: "1234abcd" });
    expect(parseSftpUsername("we#ird@b.c#1234abcd")).toEqual({ email: "we#ird@b.c", serverId: "1234abcd" });
    for (const bad of ["a@b.c", "#1234", "a@b.c#", ""]) expect(parseSftpUsername(bad)).toBeNull();
  });
});

describe("OPEN flags", () => {
  const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_EXCL, O_APPEND, O_NONBLOCK, O_NOCTTY } = constants;
  const base = O_NONBLOCK | O_NOCTTY;
  test("read, write, create, truncate, exclusive, append", () => {
    expect(openFlags(0x01)).toBe(O_RDONLY | base);
    expect(openFlags(0x02 | 0x08 | 0x10)).toBe(O_WRONLY | O_CREAT | O_TRUNC | base);
    expect(openFlags(0x01 | 0x02 | 0x08 | 0x20)).toBe(O_RDWR | O_CREAT | O_EXCL | base);
    expect(openFlags(0x02 | 0x04)).toBe(O_WRONLY | O_APPEND | base);
    expect(openFlags(0x08)).toBeNull();
  });
  test("an open that could change the disk, which a read-only session refuses", () => {
    expect(opensForChange(0x01)).toBe(false);
    // Creating or truncating changes the disk even when the client asks to read only.
    for (const pflags of [0x02, 0x04, 0x01 | 0x08, 0x01 | 0x10, 0x01 | 0x20, 0x02 | 0x08 | 0x10]) expect(opensForChange(pflags)).toBe(true);
  });
});

describe("ls -l lines", () => {
  const stats = (mode: number, mtime: Date, size = 42) => ({ mode, nlink: 1, uid: 1000, gid: 1000, size, mtimeMs: mtime.getTime() }) as Stats;
  test("modes with type and special bits", () => {
    expect(modeString(constants.S_IFDIR | 0o755)).toBe("drwxr-xr-x");
    expect(modeString(constants.S_IFREG | 0o644)).toBe("-rw-r--r--");
    expect(modeString(constants.S_IFLNK | 0o777)).toBe("lrwxrwxrwx");
    expect(modeString(constants.S_IFREG | 0o4755)).toBe("-rwsr-xr-x");
    expect(modeString(constants.S_IFDIR | 0o1777)).toBe("drwxrwxrwt");
    expect(modeString(constants.S_IFREG | 0o2644)).toBe("-rw-r-Sr--");
  });
  test("recent files show the time, old ones the year", () => {
    const now = new Date(2024, 5, 15, 12, 0).getTime();
    expect(longname("server.jar", stats(constants.S_IFREG | 0o644, new Date(2024, 5, 3, 9, 5)), now)).toBe("-rw-r--r--   1 1000     1000           42 Jun  3 09:05 server.jar");
    expect(longname("old.log", stats(constants.S_IFREG | 0o600, new Date(2020, 0, 20, 9, 5)), now)).toBe("-rw-------   1 1000     1000           42 Jan 20  2020 old.log");
  });
});

describe("statuses", () => {
  test("outside and no permission are PERMISSION_DENIED, missing is NO_SUCH_FILE, the rest FAILURE", () => {
    expect(toStatus(new KilnError("ErrPathOutside")).code).toBe(STATUS_CODE.PERMISSION_DENIED);
    expect(toStatus(new KilnError("ErrNoPermission")).code).toBe(STATUS_CODE.PERMISSION_DENIED);
    expect(toStatus(new KilnError("ErrNotFound")).code).toBe(STATUS_CODE.NO_SUCH_FILE);
    expect(toStatus(Object.assign(new Error("x"), { code: "ENOENT" })).code).toBe(STATUS_CODE.NO_SUCH_FILE);
    expect(toStatus(Object.assign(new Error("x"), { code: "EACCES" })).code).toBe(STATUS_CODE.PERMISSION_DENIED);
    expect(toStatus(Object.assign(new Error("x"), { code: "ENOTEMPTY" }))).toEqual({ code: STATUS_CODE.FAILURE, message: "Folder not empty", unexpected: false });
    // Something nobody expected: a plain failure, flagged for the log, with nothing of the error in the message.
    expect(toStatus(new Error("/secret/host/path exploded"))).toEqual({ code: STATUS_CODE.FAILURE, message: "Failure", unexpected: true });
  });
});

describe("addresses for the connection caps", () => {
  test("IPv4 as it is, also when it arrives mapped into IPv6", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey(undefined)).toBe("unknown");
  });
  test("IPv6 by its /64, however it is written", () => {
    const key = "2001:db8:aa:1::/64";
    expect(addressKey("2001:db8:aa:1::1")).toBe(key);
    expect(addressKey("2001:0db8:00aa:0001:ffff:1:2:3")).toBe(key);
    expect(addressKey("2001:DB8:AA:1:0:0:0:9")).toBe(key);
    expect(addressKey("2001:db8:aa:2::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });
});

describe("the caps in the node's configuration", () => {
  const secret = "a-node-secret-of-some-length";
  test("KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED(_PER_ADDRESS) over the file's keys over 64 and 10", () => {
    expect(loadDaemonConfig({ KILN_DAEMON_SECRET: secret }, tmpdir()).sftpLimits).toEqual({ unauthenticated: 64, unauthenticatedPerAddress: 10 });
    const env = { KILN_DAEMON_SECRET: secret, KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED: "200", KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED_PER_ADDRESS: "4" };
    expect(loadDaemonConfig(env, tmpdir()).sftpLimits).toEqual({ unauthenticated: 200, unauthenticatedPerAddress: 4 });
    const dir = tempDir("kiln-sftp-config-");
    writeFileSync(join(dir, "daemon.json"), JSON.stringify({ secret, sftpMaxUnauthenticated: 32, sftpMaxUnauthenticatedPerAddress: 3 }));
    expect(loadDaemonConfig({ KILN_DAEMON_CONFIG: "daemon.json" }, dir).sftpLimits).toEqual({ unauthenticated: 32, unauthenticatedPerAddress: 3 });
    expect(loadDaemonConfig({ KILN_DAEMON_CONFIG: "daemon.json", KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED_PER_ADDRESS: "5" }, dir).sftpLimits).toEqual({ unauthenticated: 32, unauthenticatedPerAddress: 5 });
    for (const bad of ["0", "-1", "many", "1.5"]) expect(() => loadDaemonConfig({ KILN_DAEMON_SECRET: secret, KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED: bad }, tmpdir())).toThrow(DaemonConfigError);
  });
});

describe("which clients are offered AES-GCM alone", () => {
  test("OpenSSH from 6.2 on (Windows' build too); every other client keeps the full list", () => {
    for (const software of ["OpenSSH_6.2", "OpenSSH_9.2p1", "OpenSSH_10.0", "OpenSSH_for_Windows_8.1"]) expect(hasGcm(software)).toBe(true);
    for (const software of ["OpenSSH_6.1", "OpenSSH_5.9p1", "PuTTY_Release_0.81", "paramiko_3.4.0", "ssh2js1.17.0", "", "OpenSSH"]) expect(hasGcm(software)).toBe(false);
  });
});
