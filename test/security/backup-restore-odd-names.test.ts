// Attack: a server's process names a file so that its owner cannot restore it alone from a backup.
// A path with a line break was refused (ErrFieldHasControlCharacters), and one with bytes that are
// not UTF-8 was ErrNotFound: restic's --include pattern is text, and its listing writes such bytes
// as U+FFFD. Each is now restored by its exact bytes, and only it: a name differing only in such
// bytes ("f\xFE.dat" beside "f\xFF.dat") is left as it is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { writeAsProcess, ODD_NAMES, bytesPath } from "../helpers/process-names";
import { hasRestic } from "../helpers/require-part";
import { nameFromBytes } from "../../core/files/raw-name";

const resticHere = hasRestic();
let ctx: PanelWithNode;
let id = "";
let token = "";
let backup = "";

const { folder: FOLDER, ff: FF, fe: FE, line: LINE } = ODD_NAMES;
const inside = bytesPath;
// A name that is UTF-8 text holding a character of the raw-name escapes' own range (U+EF80, the
// bytes EE BE 80: three escapes on the wire), and the raw byte 0x80 whose escape that character is.
const PUA_TEXT = Buffer.from("pua\uEF80.txt");
const PUA_RAW = Buffer.from([0x70, 0x75, 0x61, 0x80, 0x2e, 0x74, 0x78, 0x74]);
const wire = (...parts: Buffer[]) => parts.map((part) => nameFromBytes(part)).join("/");

beforeAll(async () => {
  if (!resticHere) return;
  ctx = await panelWithNode();
  id = await ctx.createServer("odd restore");
  await writeAsProcess(ctx.node.folder(id), [{ path: FOLDER }, { path: inside(FOLDER, FF), content: "ff" }, { path: inside(FOLDER, FE), content: "fe" }, { path: LINE }, { path: inside(LINE, "x.txt"), content: "x" }, { path: "line\nfile.txt", content: "l" }, { path: PUA_TEXT, content: "text" }, { path: PUA_RAW, content: "raw" }]);
  token = (await ctx.userWith(id, { backups: true })).token;
  backup = ((await ctx.node.json("POST", `/daemon/server/${id}/backups?wait=true`)) as { id: string }).id;
}, 60_000);
afterAll(() => ctx?.node.stop());

const restore = async (path: string) => {
  const answer = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/restore?wait=true`, { token, ...jsonInit("POST", { path }) });
  return [answer.status, answer.status < 300 ? "" : await answer.text()];
};
const read = (...parts: Array<Buffer | string>) => readFileSync(inside(ctx.node.folder(id), ...parts), "utf8");

describe.skipIf(!resticHere)("restoring one path a server's process named", () => {
  test("a file whose name is not UTF-8 comes back by its bytes, its look-alike untouched", async () => {
    writeFileSync(inside(ctx.node.folder(id), FOLDER, FF), "changed ff");
    writeFileSync(inside(ctx.node.folder(id), FOLDER, FE), "changed fe");
    expect(await restore(wire(FOLDER, FF))).toEqual([expect.any(Number), ""]);
    expect([read(FOLDER, FF), read(FOLDER, FE)]).toEqual(["ff", "changed fe"]);
    expect(readdirSync(inside(ctx.node.folder(id), FOLDER), { encoding: "buffer" }).map((n) => n.toString("hex")).sort()).toEqual([FE, FF].map((n) => n.toString("hex")).sort());
  }, 60_000);

  test("a folder whose name is not UTF-8 comes back whole", async () => {
    rmSync(inside(ctx.node.folder(id), FOLDER), { recursive: true });
    expect(await restore(wire(FOLDER))).toEqual([expect.any(Number), ""]);
    expect([read(FOLDER, FF), read(FOLDER, FE)]).toEqual(["ff", "fe"]);
  }, 60_000);

  test("a folder and a file whose names hold a line break come back", async () => {
    rmSync(inside(ctx.node.folder(id), LINE), { recursive: true });
    writeFileSync(inside(ctx.node.folder(id), "line\nfile.txt"), "changed");
    expect(await restore(LINE)).toEqual([expect.any(Number), ""]);
    expect(await restore("line\nfile.txt")).toEqual([expect.any(Number), ""]);
    expect([read(LINE, "x.txt"), read("line\nfile.txt")]).toEqual(["x", "l"]);
  }, 60_000);

  test("a name holding a character of the escapes' range comes back by its text, the raw byte beside it untouched", async () => {
    writeFileSync(inside(ctx.node.folder(id), PUA_TEXT), "changed text");
    writeFileSync(inside(ctx.node.folder(id), PUA_RAW), "changed raw");
    expect(await restore(wire(PUA_TEXT))).toEqual([expect.any(Number), ""]);
    expect([read(PUA_TEXT), read(PUA_RAW)]).toEqual(["text", "changed raw"]);
    expect(await restore(wire(PUA_RAW))).toEqual([expect.any(Number), ""]);
    expect(read(PUA_RAW)).toBe("raw");
  }, 60_000);

  test("a name the backup does not hold is still not found, and nothing leaves the server's folder", async () => {
    expect((await restore(wire(FOLDER, Buffer.from([0x66, 0xfd, 0x2e, 0x64, 0x61, 0x74]))))[0]).toBe(404);
    expect((await restore(`../${wire(FOLDER, FF)}`))[0]).toBeLessThan(300);
    expect(read(FOLDER, FF)).toBe("ff");
  }, 60_000);
});
