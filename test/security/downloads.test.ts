// Attacks on what downloads and restores hand back, with the real restic: a hard link in a
// server's folder to a file outside it (as a process on the node, or the server before it had its
// own user, could plant one) must not come out of a backup's download nor come back from a
// restore as a plain file the file API then serves; the template's fileDenylist holds for a
// backup's download and a single-path restore as it does for the file API; and a file named
// `..\..\x` (a backslash is a legal character in a Linux name, a separator to Windows' unzippers)
// downloads as a zip, by the file manager or from a backup, under a name that cannot climb.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { templateSchema } from "../../core/definition";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { fileTree } from "../helpers/file-tree";
import { errorOf } from "../helpers/refusal";
import { hasRestic } from "../helpers/require-part";
import { tempDir } from "../helpers/process";

const resticHere = hasRestic();
const MARK = `HOST-SECRET-${randomBytes(6).toString("hex")}`;
const DENIED_MARK = `TEMPLATE-SECRET-${randomBytes(6).toString("hex")}`;
const ID = "downloads1";
const ODD = "..\\..\\x";
let node: TestNode;
let root = "";
let outside = "";
let backupId = "";

beforeAll(async () => {
  if (!resticHere) return;
  node = await startTestNode({ stopTimeoutMs: 2000 });
  await node.json("PUT", `/daemon/server/${ID}`, templateSchema.parse({ ...echoTemplate(), fileDenylist: ["*.jar", "/config/secret.yml", "/config/\uEF80.cfg"] }));
  root = node.folder(ID);
  outside = tempDir("kiln-downloads-outside-");
  writeFileSync(join(outside, "host-secret.txt"), MARK);
  const owner = statSync(root);
  writeFileSync(join(root, "world.dat"), "the world");
  mkdirSync(join(root, "config"));
  writeFileSync(join(root, "config", "secret.yml"), DENIED_MARK);
  writeFileSync(join(root, "config", "other.yml"), "ok: true");
  writeFileSync(join(root, "server.jar"), DENIED_MARK);
  // A denied name holding a character of the raw-name escapes' range (core/files/raw-name): restic
  // lists it as text, the denylist judges wire names, and it must be left out all the same.
  writeFileSync(join(root, "config", "\uEF80.cfg"), DENIED_MARK);
  // Planted: the host's file under a second name inside the server's folder.
  linkSync(join(outside, "host-secret.txt"), join(root, "hard.txt"));
  // The server's own hard links (a package store, say): both names inside, its own files.
  writeFileSync(join(root, "own-a.txt"), "own content");
  linkSync(join(root, "own-a.txt"), join(root, "own-b.txt"));
  chownSync(join(root, "own-a.txt"), owner.uid, owner.gid);
  writeFileSync(join(root, ODD), "odd content");
  mkdirSync(join(root, "odd"));
  writeFileSync(join(root, "odd", ODD), "odd content");
  backupId = (await node.json("POST", `/daemon/server/${ID}/backups?wait=true`)).id;
}, 60_000);
afterAll(() => node?.stop());

const download = async (format: "tar.gz" | "zip") => {
  const response = await node.call("GET", `/daemon/server/${ID}/backups/${backupId}/download?format=${format}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};
/** The entry names of a tar.gz or zip, as the system's own tar and unzip list them. */
function namesIn(bytes: Buffer, format: "tar.gz" | "zip"): string[] {
  const file = join(tempDir("kiln-downloads-"), `d.${format}`);
  writeFileSync(file, bytes);
  const listing = format === "zip" ? Bun.spawnSync(["unzip", "-Z1", file]) : Bun.spawnSync(["tar", "-tzf", file]);
  expect(listing.exitCode).toBe(0);
  return listing.stdout.toString().split("\n").filter(Boolean).map((name) => name.replace(/\/$/, ""));
}
const unpacked = (bytes: Buffer, format: "tar.gz" | "zip") => (format === "zip" ? Bun.spawnSync(["unzip", "-p", writeTemp(bytes)]).stdout : gunzipSync(bytes)).toString("latin1");
function writeTemp(bytes: Buffer): string {
  const file = join(tempDir("kiln-downloads-"), "d.zip");
  writeFileSync(file, bytes);
  return file;
}
const restore = (path?: string) => node.call("POST", `/daemon/server/${ID}/backups/${backupId}/restore?wait=true`, path === undefined ? {} : { path });

describe.skipIf(!resticHere)("what a backup's download holds", () => {
  for (const format of ["tar.gz", "zip"] as const) {
    test(`${format}: neither a hard link to a host file nor a denied file; the rest, the server's own hard links too`, async () => {
      const bytes = await download(format);
      const names = namesIn(bytes, format);
      expect(names).not.toContain("hard.txt");
      expect(names).not.toContain("server.jar");
      expect(names).not.toContain("config/secret.yml");
      for (const name of ["world.dat", "config/other.yml", "own-a.txt", "own-b.txt"]) expect(names).toContain(name);
      const content = unpacked(bytes, format);
      expect(content).not.toContain(MARK);
      expect(content).not.toContain(DENIED_MARK);
    }, 30_000);
  }

  test("zip: a name holding backslashes downloads under a name that cannot climb, content whole", async () => {
    const bytes = await download("zip");
    const names = namesIn(bytes, "zip");
    expect(names.filter((name) => name.includes("\\"))).toEqual([]);
    expect(names).toContain("..\uFF3C..\uFF3Cx");
    expect(names).toContain("odd/..\uFF3C..\uFF3Cx");
    expect(unpacked(bytes, "zip")).toContain("odd content");
  }, 30_000);
});

describe.skipIf(!resticHere)("the file manager's zips and a name holding backslashes", () => {
  test("a folder's zip download and an archive made in the folder answer, with names that cannot climb", async () => {
    const url = `${node.node.url}/daemon/server/${ID}/zip?path=/odd`;
    const response = await node.call("GET", "/daemon/server/" + ID + "/zip?path=/odd");
    expect({ url, status: response.status }).toEqual({ url, status: 200 });
    const names = namesIn(Buffer.from(await response.arrayBuffer()), "zip");
    expect(names).toEqual(["odd", "odd/..\uFF3C..\uFF3Cx"]);
    const made = await node.call("POST", `/daemon/server/${ID}/archive/odd.zip`, ["/odd", `/${ODD}`]);
    expect(made.status).toBe(200);
    const path = (await made.json()).path as string;
    expect(namesIn(readFileSync(join(root, path)), "zip")).toEqual(["odd", "odd/..\uFF3C..\uFF3Cx", "..\uFF3C..\uFF3Cx"]);
  });
});

describe.skipIf(!resticHere)("what a restore brings back", () => {
  test("one path: a denied file, or a folder holding one, is refused; nothing changes", async () => {
    for (const path of ["config/secret.yml", "config", "server.jar"]) {
      const before = fileTree(root);
      expect({ path, ...(await errorOf(await restore(path))) }).toEqual({ path, status: 403, code: "ErrFileDenied" });
      expect(fileTree(root)).toEqual(before);
    }
  }, 60_000);

  test("one path that is neither denied nor a foreign hard link comes back", async () => {
    writeFileSync(join(root, "config", "other.yml"), "changed");
    expect((await restore("config/other.yml")).status).toBe(204);
    expect(readFileSync(join(root, "config", "other.yml"), "utf8")).toBe("ok: true");
  }, 30_000);

  test("one path: the hard link to a host file is refused; nothing changes", async () => {
    const before = fileTree(root);
    expect(await errorOf(await restore("hard.txt"))).toEqual({ status: 403, code: "ErrPathOutside" });
    expect(fileTree(root)).toEqual(before);
  }, 30_000);

  test("the whole folder: the hard link does not come back as a plain file the file API serves", async () => {
    writeFileSync(join(root, "world.dat"), "changed");
    expect((await restore()).status).toBe(204);
    expect(readFileSync(join(root, "world.dat"), "utf8")).toBe("the world");
    expect(existsSync(join(root, "hard.txt"))).toBe(false);
    expect((await node.call("GET", `/daemon/server/${ID}/file/hard.txt`)).status).toBe(404);
    // The server's own hard links come back as they were; the host's file is untouched.
    expect(statSync(join(root, "own-a.txt")).ino).toBe(statSync(join(root, "own-b.txt")).ino);
    expect(readFileSync(join(outside, "host-secret.txt"), "utf8")).toBe(MARK);
  }, 60_000);
});
