// Attack: a name that is not valid UTF-8. A Linux name is any bytes but "/" and NUL; the server's
// process (or an archive, or SFTP from a client that sends raw bytes) can make one. Deleting its
// folder through the file API went by decoded names: the name became U+FFFD, which no path reaches,
// so the delete removed what came before it, failed, and left the folder half there. The folder
// must go whole, the odd names with it, and nothing beside it.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileTree } from "../helpers/file-tree";
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
