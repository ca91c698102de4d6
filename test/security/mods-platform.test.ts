// Attack: a server's users own its folder (SFTP, the file manager, the game itself), and the node
// looks into that folder to tell what the server is (daemon/mods/detect-platform.ts). What they
// plant there must not make the node read outside the folder, hang on a FIFO, read a huge file,
// inflate a bomb, walk a forged central directory without end, or hand markup or a path to a page
// as a "version". Each case ends fast, with a sane answer, and without an exception.
import { describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";
import { Jail } from "../../daemon/files/jail";
import { detectPlatform, NOTHING_RECOGNISED } from "../../daemon/mods/detect-platform";
import { mojangVersion, serverFolder, vanillaJar, yazlJar } from "../../daemon/mods/test-server-folders";
import type { PlatformInfo } from "../../core/mods/types";

/** Well above what any case takes here (tens of ms), well below a hang. */
const FAST_MS = 3000;

async function detectFast(root: string): Promise<PlatformInfo> {
  const started = performance.now();
  const info = await detectPlatform(new Jail(root));
  expect(performance.now() - started).toBeLessThan(FAST_MS);
  // Nothing odd reaches a page: no markup, no quote, no way up, no host path.
  expect(JSON.stringify(Object.values(info))).not.toMatch(/<|>|'|\\|\.\.|\/etc|kiln-platform-/);
  return info;
}

function mkfifo(path: string): void {
  expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
}

/** A folder beside the server's, holding a real vanilla jar and Forge's libraries: what a link out would reach. */
async function outsideWithServerFiles(): Promise<string> {
  return serverFolder({
    "vanilla.jar": await vanillaJar("1.20.1"),
    "libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt": "",
    "version_history.json": JSON.stringify({ currentVersion: "git-Paper-196 (MC: 1.20.1)" }),
  });
}

describe("links and special files", () => {
  test("server.jar linked to /etc/passwd, or to a real server jar outside the folder, is not read", async () => {
    const outside = await outsideWithServerFiles();
    const absolute = serverFolder({});
    symlinkSync("/etc/passwd", join(absolute, "server.jar"));
    expect(await detectFast(absolute)).toEqual(NOTHING_RECOGNISED);

    const relative = serverFolder({});
    symlinkSync(`../${outside.split("/").at(-1)}/vanilla.jar`, join(relative, "server.jar"));
    symlinkSync(join(outside, "vanilla.jar"), join(relative, "minecraft.jar"));
    expect(await detectFast(relative)).toEqual(NOTHING_RECOGNISED);
  });

  test("a hard link to a jar outside the folder is not read", async () => {
    const outside = await outsideWithServerFiles();
    const root = serverFolder({});
    linkSync(join(outside, "vanilla.jar"), join(root, "server.jar"));
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });

  test("libraries/ or version_history.json linked out of the folder count for nothing", async () => {
    const outside = await outsideWithServerFiles();
    const name = outside.split("/").at(-1);
    const root = serverFolder({});
    symlinkSync(`../${name}/libraries`, join(root, "libraries"));
    symlinkSync(`../${name}/version_history.json`, join(root, "version_history.json"));
    symlinkSync(`../${name}/libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt`, join(root, "unix_args.txt"));
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });

  test("FIFOs where the signals are (version_history.json, server.jar, run.sh, the launcher's properties, a jar's name) do not block", async () => {
    const root = serverFolder({ "paper.yml": "" });
    for (const name of ["version_history.json", "server.jar", "run.sh", "fabric-server-launcher.properties", "paper-1.20.1-196.jar"]) mkfifo(join(root, name));
    mkdirSync(join(root, "libraries/net/minecraftforge"), { recursive: true });
    mkfifo(join(root, "libraries/net/minecraftforge/forge"));
    // A FIFO named like Paper's jar is no jar: only paper.yml counts.
    expect(await detectFast(root)).toEqual({ platform: "paper", gameVersion: null, folder: "plugins", detectedFrom: "paper.yml" });
  });
});

describe("sizes", () => {
  test("a 50 MB version_history.json (valid JSON) is not read", async () => {
    const root = serverFolder({ "spigot.yml": "" });
    const json = JSON.stringify({ currentVersion: "git-Paper-1 (MC: 9.9.9)" });
    writeFileSync(join(root, "version_history.json"), Buffer.concat([Buffer.from(json), Buffer.alloc(50 * 1024 * 1024, " ")]));
    expect(await detectFast(root)).toEqual({ platform: "spigot", gameVersion: null, folder: "plugins", detectedFrom: "spigot.yml" });
  });

  test("a jar whose version.json is 10 MB is not inflated", async () => {
    const huge = JSON.stringify({ id: "1.20.1", world_version: 3465, padding: " ".repeat(10 * 1024 * 1024) });
    const root = serverFolder({ "server.jar": await yazlJar({ "version.json": huge }) });
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });

  test("a jar whose version.json claims 200 bytes and inflates to 10 MB is cut off", async () => {
    const real = JSON.stringify({ id: "1.20.1", world_version: 3465, padding: " ".repeat(10 * 1024 * 1024) });
    const root = serverFolder({ "server.jar": lyingZip("version.json", Buffer.from(real), 200) });
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });

  test("a folder of thousands of entries where the libraries are is looked at only so far", async () => {
    const root = serverFolder({});
    for (let i = 0; i < 5000; i++) mkdirSync(join(root, `libraries/net/minecraftforge/forge/1.20.1-${i}.0.0`), { recursive: true });
    for (let i = 0; i < 3000; i++) writeFileSync(join(root, `junk-${i}.jar`), "x");
    const info = await detectFast(root);
    expect(info).toMatchObject({ platform: "forge", gameVersion: "1.20.1", folder: "mods" });
  });
});

describe("what a version may be", () => {
  test("a jar's version.json claiming ../../x or markup gives no version, and so no vanilla server", async () => {
    for (const id of ["../../x", "<script>alert(1)</script>", "1.20.1<img src=x onerror=alert(1)>", "", "x".repeat(65)]) {
      const root = serverFolder({ "server.jar": await yazlJar({ "version.json": JSON.stringify({ id, world_version: 1 }) }) });
      expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
    }
  });

  test("markup in version_history.json is dropped, the platform kept; a jar or a serverJar named with markup is passed over", async () => {
    const history = serverFolder({ "version_history.json": JSON.stringify({ currentVersion: "git-Paper-1 (MC: <img src=x onerror=alert(1)>)" }) });
    expect(await detectFast(history)).toEqual({ platform: "paper", gameVersion: null, loaderVersion: "1", folder: "plugins", detectedFrom: "version_history.json" });
    const named = serverFolder({
      "paper-<b>hi<\\b>-1.jar": "x",
      "<img src=x>.jar": await vanillaJar("1.20.1"),
      "fabric-server-launcher.properties": "serverJar=<svg onload=x>.jar\n",
      "<svg onload=x>.jar": await vanillaJar("1.20.1"),
    });
    expect(await detectFast(named)).toEqual({ platform: "fabric", gameVersion: null, folder: "mods", detectedFrom: "fabric-server-launcher.properties" });
  });

  test("library folders that are not versions are passed over", async () => {
    const root = serverFolder({ "libraries/net/minecraftforge/forge/<script>/": "", "libraries/net/minecraftforge/forge/1.20.1-47.2.0 onload=x/": "" });
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });
});

describe("forged jars", () => {
  test("garbage, an end record pointing nowhere, a local header past the end: each jar is just not a signal", async () => {
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(0xfffe, 8);
    eocd.writeUInt16LE(0xfffe, 10);
    eocd.writeUInt32LE(0x7fffffff, 12);
    eocd.writeUInt32LE(0x7ffffff0, 16);
    const pastTheEnd = await yazlJar({ "version.json": mojangVersion("1.20.1") });
    const centralAt = pastTheEnd.lastIndexOf(Buffer.from("version.json")) - 46;
    pastTheEnd.writeUInt32LE(0x7fffff00, centralAt + 42);
    const root = serverFolder({ "server.jar": Buffer.concat([Buffer.alloc(1000, 0x41), eocd]), "a.jar": Buffer.alloc(4096, 0x50), "b.jar": pastTheEnd, "spigot.yml": "" });
    expect(await detectFast(root)).toEqual({ platform: "spigot", gameVersion: null, folder: "plugins", detectedFrom: "spigot.yml" });
  });

  test("a zip64 end record claiming a trillion entries: only the first 65 535 are looked at", async () => {
    const root = serverFolder({ "server.jar": manyEntriesZip(70_000) });
    expect(await detectFast(root)).toEqual(NOTHING_RECOGNISED);
  });
});

/** A zip of one deflated entry whose headers claim `claimed` bytes uncompressed. */
function lyingZip(name: string, data: Buffer, claimed: number): Buffer {
  const zip = rawEntries([{ name, data: deflateRawSync(data), size: claimed, crc: crc32(data), method: 8 }]);
  return Buffer.concat([zip.locals, zip.centrals, endRecord(1, zip.centrals.length, zip.locals.length)]);
}

/**
 * `dummies` central records (all naming one tiny local entry), then Mojang's version.json, under
 * a zip64 end record that claims a trillion entries: reaching version.json needs more looks than allowed.
 */
function manyEntriesZip(dummies: number): Buffer {
  const version = Buffer.from(mojangVersion("1.20.1"));
  const zip = rawEntries([{ name: "a", data: Buffer.from("a"), size: 1, crc: crc32(Buffer.from("a")), method: 0 }, { name: "version.json", data: version, size: version.length, crc: crc32(version), method: 0 }]);
  const dummy = zip.centrals.subarray(0, 47);
  const centrals = Buffer.concat([...Array.from({ length: dummies }, () => dummy), zip.centrals.subarray(47)]);
  const zip64 = Buffer.alloc(56);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(10n ** 12n, 24);
  zip64.writeBigUInt64LE(10n ** 12n, 32);
  zip64.writeBigUInt64LE(BigInt(centrals.length), 40);
  zip64.writeBigUInt64LE(BigInt(zip.locals.length), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(zip.locals.length + centrals.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([zip.locals, centrals, zip64, locator, endRecord(0xffff, 0xffffffff, 0xffffffff)]);
}

function rawEntries(entries: { name: string; data: Buffer; size: number; crc: number; method: number }[]): { locals: Buffer; centrals: Buffer } {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  return { locals: Buffer.concat(locals), centrals: Buffer.concat(centrals) };
}

function endRecord(entries: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return end;
}
