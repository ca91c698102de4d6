// Attack: a name that is not valid UTF-8. A Linux name is any bytes but "/" and NUL; the server's
// process (or an archive, or SFTP from a client that sends raw bytes) can make one. Deleting its
// folder through the file API went by decoded names: the name became U+FFFD, which no path reaches,
// so the delete removed what came before it, failed, and left the folder half there. The folder
// must go whole, the odd names with it, and nothing beside it.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileTree } from "../helpers/file-tree";
import { writeAsProcess } from "../helpers/process-names";
import { zipNames } from "../helpers/zip-names";
import { panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let id = "";
let folder = "";
let token = "";

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("raw names");
  folder = join(ctx.node.config.dataDir, "servers", id);
  token = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
});

/** `base` joined with a name made of raw bytes (not UTF-8). */
const raw = (base: string, ...bytes: number[][]) => Buffer.concat([Buffer.from(base), ...bytes.flatMap((name) => [Buffer.from("/"), Buffer.from(name)])]);

test("a folder holding names that are not UTF-8 (a file, a folder with a file) is deleted whole", async () => {
  const dir = join(folder, "odd");
  mkdirSync(join(dir, "first"), { recursive: true });
  writeFileSync(join(dir, "first", "a.txt"), "a");
  writeFileSync(raw(dir, [0x66, 0xff, 0xfe]), "not utf-8");
  mkdirSync(raw(dir, [0xc3, 0x28]));
  writeFileSync(raw(dir, [0xc3, 0x28], [0x80]), "deeper");
  writeFileSync(join(dir, "zzz.txt"), "z");
  writeFileSync(join(folder, "beside.txt"), "kept");
  const response = await ctx.panel.request(`/proxy/daemon/server/${id}/file/odd`, { token, method: "DELETE" });
  expect(response.status).toBe(204);
  expect(existsSync(dir)).toBe(false);
  expect(fileTree(folder)).toMatchObject({ "beside.txt": expect.stringContaining("file") });
});

test("a copy, a zip and an archive of a folder holding a name that is not UTF-8 are refused, not made without it", async () => {
  const dir = join(folder, "mixed");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "plain.txt"), "plain");
  writeFileSync(raw(dir, [0x77, 0x6f, 0x72, 0x6c, 0x64, 0xe9]), "a name from an old Windows zip");
  // What is there, names as the kernel holds them (a test helper reading names as text could not lstat this one either).
  const tree = () => [readdirSync(folder).sort(), readdirSync(dir, { encoding: "buffer" }).map((name) => name.toString("hex")).sort()];
  const before = tree();
  const refused = async (response: Response) => [response.status, (await response.json()).error.code];
  const post = (path: string, body: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}/${path}`, { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(await refused(await post("copy", { from: "mixed", to: "mixed-copy" }))).toEqual([400, "ErrNameNotText"]);
  expect(await refused(await post("archive/mixed.zip", ["mixed"]))).toEqual([400, "ErrNameNotText"]);
  expect(await refused(await ctx.panel.request(`/proxy/daemon/server/${id}/zip?path=mixed`, { token }))).toEqual([400, "ErrNameNotText"]);
  // Nothing half made: no copy, no zip, no temporary file.
  expect(tree()).toEqual(before);
});

test("a name that is text holding characters of the escape range is copied, zipped and archived as that text", async () => {
  // U+EF80 and U+EFFF are text (the bytes EE BE 80, EE BF BF): their wire form is escapes, as a raw
  // byte's is, and such a folder was refused as "not UTF-8" although every name in it is.
  const dir = join(folder, "pua");
  mkdirSync(dir, { recursive: true });
  await writeAsProcess(dir, [{ path: "x\uEF80\uEFFF.txt", content: "private use" }, { path: "\uEFC3\uEFA9" }, { path: "\uEFC3\uEFA9/in.txt", content: "inside" }]);
  const post = (path: string, body: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}/${path}`, { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("copy", { from: "pua", to: "pua-copy" })).status).toBeLessThan(300);
  expect(readFileSync(join(folder, "pua-copy", "x\uEF80\uEFFF.txt"), "utf8")).toBe("private use");
  expect(readFileSync(join(folder, "pua-copy", "\uEFC3\uEFA9", "in.txt"), "utf8")).toBe("inside");
  const inZip = ["pua/", "pua/x\uEF80\uEFFF.txt", "pua/\uEFC3\uEFA9/", "pua/\uEFC3\uEFA9/in.txt"].sort();
  expect((await post("archive/pua.zip", ["pua"])).status).toBeLessThan(300);
  expect(await zipNames(join(folder, "pua.zip"))).toEqual(inZip);
  const download = await ctx.panel.request(`/proxy/daemon/server/${id}/zip?path=pua`, { token });
  expect(download.status).toBe(200);
  writeFileSync(join(folder, "..", "pua-download.zip"), Buffer.from(await download.arrayBuffer()));
  expect(await zipNames(join(folder, "..", "pua-download.zip"))).toEqual(inZip);
  // A raw byte beside them is still refused, whatever its neighbours.
  await writeAsProcess(dir, [{ path: Buffer.from([0x66, 0xff]), content: "not text" }]);
  expect((await post("copy", { from: "pua", to: "pua-copy-2" })).status).toBe(400);
});
