// Attack: files the server's own process (the game, a plugin: it writes anything in its folder)
// names so that the panel's users cannot see or handle them. A name that is not UTF-8 used to be
// left out of every listing (it decoded to U+FFFD, which no path reaches): a plugin could fill
// the disk, or plant a script, under a name the owner could neither see, download, rename nor
// delete from the file manager. Now every entry is listed by a lossless wire form
// (core/files/raw-name), addressed by it to its exact bytes and never beyond the folder, and shown
// with visible escapes, as are characters that make a name lie (a right-to-left override).
import { beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { encodePath } from "../../core/files";
import { nameFromBytes } from "../../core/files/raw-name";
import { jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";
import { writeAsProcess } from "../helpers/process-names";

let ctx: PanelWithNode;
let id = "";
let folder = "";
let owner = "";

const FILLER = Buffer.from([0x66, 0x69, 0x6c, 0x6c, 0xff, 0xfe]); // "fill" and two bytes that are not UTF-8
const PLANTED = Buffer.from([0x70, 0x6c, 0x75, 0x67, 0xc3, 0x28]); // "plug", a broken two-byte sequence
const RAW_80 = Buffer.from([0x80]); // one raw byte: its wire form is U+EF80 ...
const LOOKALIKE = Buffer.from("\uEF80"); // ... and this name is that character itself, written as UTF-8
const FILLER_CONTENT = "x".repeat(256 * 1024);

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("hidden names");
  folder = ctx.node.folder(id);
  await writeAsProcess(folder, [
    { path: FILLER, content: FILLER_CONTENT },
    { path: PLANTED },
    { path: Buffer.concat([PLANTED, Buffer.from("/run.sh")]), content: "#!/bin/sh\necho planted\n" },
    { path: RAW_80, content: "the raw byte" },
    { path: LOOKALIKE, content: "the private-use character" },
    { path: "evil\u202Eraj.txt", content: "a jar that says it is text" },
  ]);
  owner = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
}, 30_000);

const call = (method: string, rest: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}${rest}`, { token: owner, ...jsonInit(method, body) });
const names = async () => ((await (await call("GET", "/file/")).json()) as { files: { name: string }[] }).files.map((entry) => entry.name);
const onDisk = () => readdirSync(folder, { encoding: "buffer" }).map((name) => name.toString("hex"));

test("every name the server's process made is listed, by a wire form that names its bytes", async () => {
  const listed = await names();
  for (const bytes of [FILLER, PLANTED, RAW_80, LOOKALIKE]) expect(listed).toContain(nameFromBytes(bytes));
  // The raw byte and the character that stands for it elsewhere are two rows, not one.
  expect(nameFromBytes(RAW_80)).not.toBe(nameFromBytes(LOOKALIKE));
  expect(listed).toContain("evil\u202Eraj.txt");
});

test("each is downloaded by its wire name, the look-alikes each their own", async () => {
  const filler = await call("GET", `/file/${encodePath(nameFromBytes(FILLER))}`);
  expect(filler.status).toBe(200);
  expect((await filler.text()).length).toBe(FILLER_CONTENT.length);
  expect(await (await call("GET", `/file/${encodePath(nameFromBytes(RAW_80))}`)).text()).toBe("the raw byte");
  expect(await (await call("GET", `/file/${encodePath(nameFromBytes(LOOKALIKE))}`)).text()).toBe("the private-use character");
  const planted = await call("GET", `/file/${encodePath(`${nameFromBytes(PLANTED)}/run.sh`)}`);
  expect(await planted.text()).toContain("echo planted");
});

test("the file is saved under its shown name: the override cannot pass a jar for text", async () => {
  const response = await call("GET", `/file/${encodePath("evil\u202Eraj.txt")}`);
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''${encodeURIComponent("evil\\u202Eraj.txt")}`);
});

// A folder is downloaded as a zip named after it: "photos\u202Egpj.scr" + ".zip" showed in a
// download bar as "photospiz.rcs.jpg". The zip is named by the folder's shown name, as a file is.
test("a folder's zip is saved under its shown name too: no override, no raw byte", async () => {
  await writeAsProcess(folder, [{ path: "photos\u202Egpj.scr" }, { path: "photos\u202Egpj.scr/a.txt", content: "a" }, { path: Buffer.from([0x64, 0xff]) }, { path: Buffer.from([0x64, 0xff, 0x2f, 0x61]), content: "a" }]);
  for (const [name, shown] of [
    ["photos\u202Egpj.scr", "photos\\u202Egpj.scr.zip"],
    [nameFromBytes(Buffer.from([0x64, 0xff])), "d\\xFF.zip"],
  ]) {
    const response = await call("GET", `/zip?path=${encodeURIComponent(name!)}`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(shown!)}`);
  }
});

test("the planted folder is renamed, the filler deleted: by their wire names, exactly those", async () => {
  expect((await call("POST", "/move", { from: nameFromBytes(PLANTED), to: "plug-seen" })).status).toBeLessThan(300);
  expect(readFileSync(join(folder, "plug-seen/run.sh"), "utf8")).toContain("echo planted");
  expect((await call("DELETE", `/file/${encodePath(nameFromBytes(FILLER))}`)).status).toBe(204);
  expect(onDisk()).not.toContain(FILLER.toString("hex"));
  // Deleting the raw byte's file leaves the look-alike.
  expect((await call("DELETE", `/file/${encodePath(nameFromBytes(RAW_80))}`)).status).toBe(204);
  expect(onDisk()).not.toContain(RAW_80.toString("hex"));
  expect(onDisk()).toContain(LOOKALIKE.toString("hex"));
});

test("the wire form never reaches outside the folder: escapes stand only for bytes 0x80..0xFF", async () => {
  const before = onDisk();
  for (const to of ["../\uEFFF", "\uEFFF/../../\uEFFE", `${nameFromBytes(LOOKALIKE)}/../../x`]) {
    const response = await call("POST", "/move", { from: nameFromBytes(LOOKALIKE), to });
    expect([response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([403, "ErrPathOutside"]);
  }
  // "\uEF2E" is no escape (it is not in U+EF80..U+EFFF): a name of its own, never a dot.
  expect((await call("GET", `/file/${encodePath("\uEF2E\uEF2E")}`)).status).toBe(404);
  expect(onDisk()).toEqual(before);
  expect(existsSync(join(folder, "..", "x"))).toBe(false);
});

test("the file manager shows the names with visible escapes, the override included", async () => {
  const { html } = await ctx.page(`/server/${id}?tab=files`, owner);
  expect(html).toContain('<mark class="label-escape">\\xEE\\xBE\\x80</mark>');
  expect(html).toContain('<mark class="label-escape">\\u202E</mark>');
});

// U+2800 (braille pattern blank) draws nothing and is no White_Space: "server.properties\u2800"
// beside the real one showed as a second "server.properties", and the owner edited the one the
// server does not read. At either end it is escaped like a space.
test("a blank braille pattern at a name's end is shown escaped, as a space there is", async () => {
  await writeAsProcess(folder, [{ path: "server.properties\u2800", content: "a look-alike" }]);
  const { html } = await ctx.page(`/server/${id}?tab=files`, owner);
  expect(html).toContain('server.properties<mark class="label-escape">\\u2800</mark>');
});

test("a name spelled with escapes for bytes that are UTF-8 is that name, for the file denylist too", async () => {
  // The denylist names "été.cfg"; the same bytes spelled as escapes must be denied alike, whether
  // the file is there (a read) or not yet (a move making it).
  const definition = await ctx.node.json("GET", `/daemon/server/${id}`);
  expect((await ctx.node.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: ["été.cfg"] })).status).toBe(204);
  const spelled = (text: string) => Array.from(Buffer.from(text), (byte) => (byte < 0x80 ? String.fromCharCode(byte) : String.fromCharCode(0xef00 + byte))).join("");
  await writeAsProcess(folder, [{ path: "mine.txt", content: "mine" }, { path: "sub" }, { path: "sub/été.cfg", content: "denied" }]);
  const before = onDisk();
  const refused = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
  expect(await refused(await call("GET", `/file/${encodePath(spelled("sub/été.cfg"))}`))).toEqual([403, "ErrFileDenied"]);
  expect(await refused(await call("POST", "/move", { from: "mine.txt", to: spelled("été.cfg") }))).toEqual([403, "ErrFileDenied"]);
  expect(await refused(await call("POST", "/copy", { from: "mine.txt", to: spelled("été.cfg") }))).toEqual([403, "ErrFileDenied"]);
  expect(onDisk()).toEqual(before);
  // A name the denylist does not name, spelled so, is made under its own bytes.
  expect((await call("POST", "/move", { from: "mine.txt", to: spelled("épée.txt") })).status).toBe(200);
  expect(readFileSync(join(folder, "épée.txt"), "utf8")).toBe("mine");
});
