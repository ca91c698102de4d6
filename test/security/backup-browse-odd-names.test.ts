// Attack: a server's process names files so that browsing its backups lies or fails: restic's
// `ls --json` prints each byte that is not UTF-8 as U+FFFD, so "f\xFF.dat" and "f\xFE.dat" were
// listed as one name no file has, a folder so named could not be opened, and a folder whose name
// holds a line break was refused; a picked entry's path was trimmed ("spaced " restored nothing).
// Each entry is now listed by its wire name (core/files/raw-name, from restic's tree objects),
// every folder opens, the backups tab shows the names escaped, and a picked entry goes exactly.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { eventually } from "../helpers/node";
import { formInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { writeAsProcess, ODD_NAMES, bytesPath } from "../helpers/process-names";
import { hasRestic } from "../helpers/require-part";
import { nameFromBytes } from "../../core/files/raw-name";
import { formPath } from "../../core/files/form-name";

const resticHere = hasRestic();
let ctx: PanelWithNode;
let id = "";
let token = "";
let backup = "";

const { folder: FOLDER, ff: FF, fe: FE, line: LINE } = ODD_NAMES;
const inside = bytesPath;

beforeAll(async () => {
  if (!resticHere) return;
  ctx = await panelWithNode();
  id = await ctx.createServer("odd browse");
  await writeAsProcess(ctx.node.folder(id), [{ path: "world.dat", content: "w" }, { path: FOLDER }, { path: inside(FOLDER, FF), content: "ff" }, { path: inside(FOLDER, FE), content: "fe" }, { path: LINE }, { path: inside(LINE, "x.txt"), content: "x" }, { path: "back\\slash.txt", content: "b" }, { path: "spaced ", content: "s" }, { path: "pua" }, { path: "pua/pua\uEF80.txt", content: "t" }]);
  token = (await ctx.userWith(id, { backups: true })).token;
  backup = ((await ctx.node.json("POST", `/daemon/server/${id}/backups?wait=true`)) as { id: string }).id;
}, 60_000);
afterAll(() => ctx?.node.stop());

const browse = async (path: string) => {
  const answer = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/files?path=${encodeURIComponent(path)}`, { token });
  const body = await answer.json();
  return { status: answer.status, names: (body.files as { name: string }[] | undefined)?.map((f) => f.name).sort() ?? body };
};

describe.skipIf(!resticHere)("browsing a backup holding names a server's process gave", () => {
  test("every entry is listed by its wire name, and every folder opens", async () => {
    expect(await browse("")).toEqual({ status: 200, names: ["back\\slash.txt", LINE, "motd.txt", nameFromBytes(FOLDER), "pua", "spaced ", "world.dat"].sort() });
    expect(await browse(nameFromBytes(FOLDER))).toEqual({ status: 200, names: [nameFromBytes(FE), nameFromBytes(FF)].sort() });
    expect(await browse(LINE)).toEqual({ status: 200, names: ["x.txt"] });
    expect((await browse(`${nameFromBytes(FOLDER)}x`)).status).toBe(404);
  }, 60_000);

  // restic lists names as text; a name that is text holding U+EF80 (the bytes EE BE 80) was listed
  // as written, which on the wire is the raw byte 0x80: shown as "\x80", and picked, another file.
  test("a name that is text holding a character of the escapes' range is listed by its own wire name", async () => {
    expect(await browse("pua")).toEqual({ status: 200, names: [nameFromBytes(Buffer.from("pua\uEF80.txt"))] });
  }, 60_000);

  test("the backups tab shows them escaped, and its restore forms name them exactly", async () => {
    const { html } = await ctx.page(`/server/${id}?tab=backups&browse=${backup}&path=${encodeURIComponent(nameFromBytes(FOLDER))}`, token);
    for (const escape of ["\\xFF", "\\xFE", "\\xE9"]) expect(html).toContain(escape);
    expect(html).toContain(`name="entry" value="${nameFromBytes(FOLDER)}/${nameFromBytes(FF)}"`);
    const root = (await ctx.page(`/server/${id}?tab=backups&browse=${backup}`, token)).html;
    expect(root).toContain(`name="entry" value="${formPath(LINE)}"`);
    expect(root).toContain("line\\nfolder");
  }, 60_000);

  test("a file picked while browsing is restored by its exact path, untrimmed", async () => {
    const file = Buffer.from("spaced ");
    rmSync(inside(ctx.node.folder(id), file));
    const { html } = await ctx.page(`/server/${id}?tab=backups&browse=${backup}`, token);
    expect(html).toContain(`name="entry" value="${formPath("spaced ")}"`);
    // It was taken from the typed field and trimmed: "spaced" is no file of the backup.
    const answer = await ctx.panel.request(`/server/${id}/backups/${backup}/restore`, { token, ...formInit({ entry: formPath("spaced ") }) });
    expect(answer.status).toBe(303);
    const read = () => {
      try {
        return readFileSync(inside(ctx.node.folder(id), file), "utf8");
      } catch {
        return null;
      }
    };
    await eventually(async () => read() !== null, 30_000, "the file restored");
    expect(read()).toBe("s");
  }, 60_000);
});
