// Attack: the file manager's own operations (move and rename, copy, permissions,
// search, zip download, and their no-script form route), through the panel as a user holding
// the file flags and no more. Markers are planted outside the server's folder (a sibling folder,
// another server's folder) and links and a hard link to them inside it, as a server process
// would make them. Nothing outside may change, move in or leak out; every refusal is a catalogue
// error without a host path; a user without putServerFiles changes nothing; a copy past the disk
// space leaves nothing; a search neither climbs nor loops.
import { beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES } from "../../core/errors";
import { HTML } from "../helpers/app";
import { fileTree } from "../helpers/file-tree";
import { jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";
import { tempDir } from "../helpers/process";

const MARK = `MARK-${randomBytes(6).toString("hex")}`;
let ctx: PanelWithNode;
let id = "";
let victimId = "";
let folder = "";
let outside = "";
let writer = "";
let reader = "";
/** Snapshots of everything outside the server's folder the attacks aim at. */
let before: { outside: Record<string, string>; victim: Record<string, string> };

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("fm target");
  victimId = await ctx.createServer("fm victim");
  folder = ctx.node.folder(id);
  outside = tempDir("kiln-fm-outside-");
  writeFileSync(join(outside, "secret.txt"), `${MARK}-outside`);
  writeFileSync(join(outside, "hard-target.txt"), `${MARK}-hard`);
  writeFileSync(join(outside, `${MARK}-name.txt`), "found by name only if the search climbed");
  const victimFolder = ctx.node.folder(victimId);
  mkdirSync(victimFolder, { recursive: true });
  writeFileSync(join(victimFolder, "victim.txt"), `${MARK}-victim`);
  // Planted as the game would: links out (to a folder, a file, the other server), a link loop
  // and a climb, and a hard link to a file outside.
  symlinkSync(outside, join(folder, "link-dir"));
  symlinkSync(join(outside, "secret.txt"), join(folder, "link-file"));
  symlinkSync(`../${victimId}`, join(folder, "link-victim"));
  mkdirSync(join(folder, "loops"));
  symlinkSync(".", join(folder, "loops/self"));
  symlinkSync("../..", join(folder, "loops/up"));
  linkSync(join(outside, "hard-target.txt"), join(folder, "hard.txt"));
  mkdirSync(join(folder, "box"));
  symlinkSync(join(outside, "secret.txt"), join(folder, "box/out-link"));
  writeFileSync(join(folder, "box/in.txt"), "inside");
  writer = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
  reader = (await ctx.userWith(id, { viewServerFiles: true })).token;
  before = { outside: fileTree(outside), victim: fileTree(victimFolder) };
}, 30_000);

const call = (method: string, rest: string, token: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}${rest}`, { token, ...jsonInit(method, body) });

/** A refusal: the catalogue code expected, and nothing of the host in the answer. */
async function expectRefused(response: Response, codes: string[], what: string): Promise<void> {
  const text = await response.text();
  for (const secret of [ctx.node.config.dataDir, outside, MARK]) expect([what, text.includes(secret)]).toEqual([what, false]);
  expect([what, response.status >= 400 && response.status < 600]).toEqual([what, true]);
  const code = JSON.parse(text).error.code;
  expect(ERROR_CODES).toContain(code);
  expect([what, codes.includes(code) ? code : `${code} (wanted ${codes.join("|")})`]).toEqual([what, code]);
}

function expectOutsideUntouched(): void {
  expect(fileTree(outside)).toEqual(before.outside);
  expect(fileTree(ctx.node.folder(victimId))).toEqual(before.victim);
}

describe("move, rename and copy stay inside the server's folder", () => {
  test("out of the folder, onto another server's path, through links: refused", async () => {
    const attempts: Array<[string, { from: string; to: string }]> = [
      ["move", { from: "motd.txt", to: `../${victimId}/planted.txt` }],
      ["move", { from: "motd.txt", to: `/../${victimId}/planted.txt` }],
      ["move", { from: "motd.txt", to: "../../../../tmp/planted.txt" }],
      ["move", { from: "motd.txt", to: "link-dir/planted.txt" }],
      ["move", { from: "motd.txt", to: "link-victim/planted.txt" }],
      ["move", { from: `../${victimId}/victim.txt`, to: "stolen.txt" }],
      ["move", { from: "link-victim/victim.txt", to: "stolen.txt" }],
      ["move", { from: "link-dir/secret.txt", to: "stolen.txt" }],
      ["move", { from: "link-dir", to: "link-victim/moved" }],
      ["copy", { from: `../${victimId}/victim.txt`, to: "stolen.txt" }],
      ["copy", { from: "link-victim/victim.txt", to: "stolen.txt" }],
      ["copy", { from: "link-file", to: "link-victim/copied.txt" }],
      ["copy", { from: "link-dir/secret.txt", to: "stolen.txt" }],
      ["copy", { from: "motd.txt", to: "link-dir/planted.txt" }],
      ["copy", { from: "motd.txt", to: `../${victimId}/planted.txt` }],
      ["copy", { from: "motd.txt", to: "a\u0000b" }],
    ];
    for (const [kind, body] of attempts) await expectRefused(await call("POST", `/${kind}`, writer, body), ["ErrPathOutside", "ErrNotFound", "ErrFieldRequired"], `${kind} ${body.from} -> ${body.to}`);
    expect(existsSync(join(folder, "stolen.txt"))).toBe(false);
    expect(existsSync(join(folder, "motd.txt"))).toBe(true);
    expectOutsideUntouched();
  });

  test("a hard link to a file outside is never copied; a copied folder's link out is left out", async () => {
    await expectRefused(await call("POST", "/copy", writer, { from: "hard.txt", to: "hard-copy.txt" }), ["ErrPathOutside"], "copy hard link");
    expect(existsSync(join(folder, "hard-copy.txt"))).toBe(false);
    expect((await call("POST", "/copy", writer, { from: "box", to: "box-copy" })).status).toBe(200);
    expect(fileTree(join(folder, "box-copy"))).toEqual({ "in.txt": fileTree(join(folder, "box"))["in.txt"]! });
    // Moving a link moves the link (inside), never what it points to.
    expect((await call("POST", "/move", writer, { from: "link-file", to: "box/renamed-link" })).status).toBe(200);
    expectOutsideUntouched();
  });

  test("the no-script form route refuses the same", async () => {
    const form = (fields: Array<[string, string]>) => ctx.panel.request(`/server/${id}/files/act`, { token: writer, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });
    for (const fields of [
      [["folder", ""], ["do", "move"], ["confirm", "1"], ["pick", "motd.txt"], ["target", `../${victimId}`]],
      [["folder", ""], ["do", "copy"], ["confirm", "1"], ["pick", "motd.txt"], ["target", "link-dir"]],
      [["folder", `../${victimId}`], ["do", "delete"], ["confirm", "1"], ["pick", "victim.txt"]],
      [["folder", ""], ["do", "delete"], ["confirm", "1"], ["pick", `../${victimId}`]],
      [["folder", "link-victim"], ["do", "delete"], ["confirm", "1"], ["pick", "victim.txt"]],
    ] as Array<Array<[string, string]>>) {
      const response = await form(fields);
      expect([JSON.stringify(fields), response.status >= 400 && response.status < 500]).toEqual([JSON.stringify(fields), true]);
      const html = await response.text();
      for (const secret of [ctx.node.config.dataDir, outside, MARK]) expect(html.includes(secret)).toBe(false);
    }
    expectOutsideUntouched();
  });
});

describe("permissions", () => {
  test("setuid, setgid, sticky and bits beyond are refused; a file outside or a hard link cannot be changed", async () => {
    writeFileSync(join(folder, "tool.sh"), "echo\n");
    for (const mode of ["4755", "2755", "1777", "7777", 0o4755, 0o10644, "0o755", "-755"]) await expectRefused(await call("POST", "/mode", writer, { path: "tool.sh", mode }), ["ErrFileModeInvalid"], `mode ${mode}`);
    expect(statSync(join(folder, "tool.sh")).mode & 0o7000).toBe(0);
    for (const path of ["link-dir/secret.txt", "link-victim/victim.txt", `../${victimId}/victim.txt`, "hard.txt", "link-victim", "/"]) {
      await expectRefused(await call("POST", "/mode", writer, { path, mode: "777" }), ["ErrPathOutside", "ErrNotFound", "ErrNoPermission"], `chmod ${path}`);
    }
    expect(statSync(join(outside, "secret.txt")).mode & 0o777).not.toBe(0o777);
    expect(statSync(join(outside, "hard-target.txt")).mode & 0o777).not.toBe(0o777);
    expectOutsideUntouched();
  });
});

describe("a user without putServerFiles", () => {
  test("can search and download a zip, but move, copy, chmod and the forms change nothing", async () => {
    const tree = fileTree(folder);
    for (const [rest, body] of [
      ["/move", { from: "motd.txt", to: "gone.txt" }],
      ["/copy", { from: "motd.txt", to: "twice.txt" }],
      ["/mode", { path: "motd.txt", mode: "777" }],
    ] as const) await expectRefused(await call("POST", rest, reader, body), ["ErrNoPermission"], `reader ${rest}`);
    for (const fields of [[["folder", ""], ["row", "rename:motd.txt"], ["confirm", "1"], ["name", "x"]], [["folder", ""], ["do", "delete"], ["confirm", "1"], ["pick", "motd.txt"]]]) {
      const response = await ctx.panel.request(`/server/${id}/files/act`, { token: reader, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });
      expect(response.status).toBe(403);
    }
    expect(fileTree(folder)).toEqual(tree);
    expect((await call("GET", "/search?q=motd", reader)).status).toBe(200);
    expect((await call("GET", "/zip?path=motd.txt", reader)).status).toBe(200);
    // And someone with no file flag at all reads nothing.
    const stranger = (await ctx.userWith(id, { viewServerConsole: true })).token;
    for (const rest of ["/search?q=motd", "/zip?path=motd.txt"]) await expectRefused(await call("GET", rest, stranger), ["ErrNoPermission"], `stranger ${rest}`);
  });
});

describe("disk space", () => {
  test("a copy that would exceed it is refused before a byte is written, and leaves nothing", async () => {
    const limited = await ctx.createServer("fm limited", { limits: { diskMiB: 1 } });
    const limitedFolder = ctx.node.folder(limited);
    mkdirSync(join(limitedFolder, "world"), { recursive: true });
    // Written behind Kiln's back, as the game would: the copy is what must not fit.
    writeFileSync(join(limitedFolder, "world/region-a.bin"), Buffer.alloc(700 * 1024, 1));
    writeFileSync(join(limitedFolder, "world/region-b.bin"), Buffer.alloc(700 * 1024, 2));
    const listing = readdirSync(limitedFolder).sort();
    const response = await ctx.panel.request(`/proxy/daemon/server/${limited}/copy`, { token: ctx.admin.token, ...jsonInit("POST", { from: "world", to: "world-backup" }) });
    expect(response.status).toBe(507);
    expect((await response.json()).error.code).toBe("ErrDiskQuotaExceeded");
    expect(readdirSync(limitedFolder).sort()).toEqual(listing);
  });
});

describe("search", () => {
  test("neither climbs nor follows links out nor loops; a climbing folder is refused", async () => {
    const started = Date.now();
    const answer = await call("GET", `/search?q=${encodeURIComponent(MARK)}`, reader);
    expect(answer.status).toBe(200);
    const found = await answer.json();
    expect(found).toEqual({ path: "", query: MARK, results: [], truncated: false });
    // Links are found by their own name, never walked into (loops/self, loops/up).
    const loops = await (await call("GET", "/search?q=e&path=loops", reader)).json();
    expect(loops.results.map((r: { path: string }) => r.path).sort()).toEqual(["loops/self"]);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const path of ["..", `../${victimId}`, "/..", "link-victim", "link-dir", "loops/up"]) await expectRefused(await call("GET", `/search?q=victim&path=${encodeURIComponent(path)}`, reader), ["ErrPathOutside"], `search in ${path}`);
  });

  test("a zip download skips links out and refuses paths out", async () => {
    const zip = await call("GET", "/zip?path=link-dir&path=box", reader);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.includes(Buffer.from(MARK))).toBe(false);
    expect(bytes.includes(Buffer.from("box/in.txt"))).toBe(true);
    for (const path of [`../${victimId}/victim.txt`, "link-victim/victim.txt", "../../etc/passwd"]) await expectRefused(await call("GET", `/zip?path=${encodeURIComponent(path)}`, reader), ["ErrPathOutside", "ErrNotFound"], `zip ${path}`);
    expectOutsideUntouched();
  });
});
