// Names a server's own process gives its files, as the file manager, the socket and SFTP's jail
// meet them: controls (a newline, a tab, an escape sequence), a zero-width space, a name in NFC
// and the same in NFD, dots and spaces ("..␠", ".␠", a trailing space), the longest name Linux
// allows, and bytes that are not UTF-8 (a folder and a file inside it). Each is listed by its wire
// name (core/files/raw-name), read back byte for byte, renamed and deleted through the panel,
// each row reaching its own file; what the file manager shows is the name with visible escapes.
import { beforeAll, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { encodePath, joinPath } from "../core/files";
import { bytesFromName, nameFromBytes } from "../core/files/raw-name";
import { shownName } from "../core/files/shown-name";
import { formName, formPath } from "../core/files/form-name";
import { filesPageUrl } from "../core/files/page-urls";
import { HTML } from "./helpers/app";
import { jsonInit, panelForAll, type PanelWithNode } from "./helpers/panel-node";
import { writeAsProcess } from "./helpers/process-names";

let ctx: PanelWithNode;
let id = "";
let folder = "";
let owner = "";

const RAW_FOLDER = Buffer.from([0x6f, 0x6c, 0x64, 0x2d, 0xe9]); // "old-é" in Latin-1, from an old Windows zip
const RAW_FILE = Buffer.from([0x69, 0x6e, 0x6e, 0x65, 0x72, 0xff, 0x2e, 0x74, 0x78, 0x74]); // "inner\xFF.txt"
const LONGEST = `${"a".repeat(251)}.jar`; // 255 bytes, Linux's NAME_MAX

/** Each name (as text) and how the file manager shows it. */
const TEXT_NAMES: Array<[string, string]> = [
  ["line\nbreak.txt", "line\\nbreak.txt"],
  ["tab\there.txt", "tab\\there.txt"],
  ["esc\u001b[31mred.txt", "esc\\u001B[31mred.txt"],
  ["zero\u200bwidth.txt", "zero\\u200Bwidth.txt"],
  ["caf\u00e9.txt", "caf\u00e9.txt"],
  ["cafe\u0301.txt", "cafe\u0301.txt"],
  [".. ", "..\\u0020"],
  [". ", ".\\u0020"],
  ["trailing ", "trailing\\u0020"],
  ["two  spaces.txt", "two  spaces.txt"],
  [LONGEST, LONGEST],
];

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("odd names");
  folder = ctx.node.folder(id);
  await writeAsProcess(folder, [
    ...TEXT_NAMES.map(([name]) => ({ path: name, content: `content of ${JSON.stringify(name)}` })),
    { path: RAW_FOLDER },
    { path: Buffer.concat([RAW_FOLDER, Buffer.from("/"), RAW_FILE]), content: "inside the raw folder" },
  ]);
  owner = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
}, 30_000);

const call = (method: string, rest: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${id}${rest}`, { token: owner, ...jsonInit(method, body) });
const listed = async (path: string) => ((await (await call("GET", `/file/${encodePath(path)}`)).json()) as { files: { name: string }[]; truncated: boolean }).files.map((entry) => entry.name);
const onDisk = () => readdirSync(folder, { encoding: "buffer" }).map((name) => name.toString("hex")).sort();

test("the wire form gives back every name's exact bytes", () => {
  for (const bytes of [RAW_FOLDER, RAW_FILE, Buffer.from(LONGEST), Buffer.from("caf\u00e9"), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80])]) {
    expect(Buffer.from(bytesFromName(nameFromBytes(bytes))).equals(bytes)).toBe(true);
  }
  // An overlong "/" (C0 AF) stays two raw bytes, never a slash.
  expect(nameFromBytes(Buffer.from([0xc0, 0xaf]))).not.toContain("/");
});

test("every name is listed, each exactly as the process wrote it, and shown with its escapes", async () => {
  const names = await listed("");
  for (const [name, shown] of TEXT_NAMES) {
    expect(names).toContain(name);
    expect(shownName(name)).toBe(shown);
  }
  expect(names).toContain(nameFromBytes(RAW_FOLDER));
  expect(shownName(nameFromBytes(RAW_FOLDER))).toBe("old-\\xE9");
  expect(await listed(nameFromBytes(RAW_FOLDER))).toEqual([nameFromBytes(RAW_FILE)]);
  // The search by name walks by the same wire names.
  const search = (await (await call("GET", "/search?path=&q=inner")).json()) as { results: { path: string }[] };
  expect(search.results.map((hit) => hit.path)).toEqual([joinPath(nameFromBytes(RAW_FOLDER), nameFromBytes(RAW_FILE))]);
  // The socket's listing is the same, through the node's channel.
  const socket = await ctx.node.socket(id);
  try {
    socket.send("file", { data: { action: "get", path: nameFromBytes(RAW_FOLDER) } });
    const answer = await socket.next((message) => message.type === "file");
    expect((answer.data as { files: { name: string }[] }).files.map((entry) => entry.name)).toEqual([nameFromBytes(RAW_FILE)]);
  } finally {
    socket.close();
  }
});

test("each file reads back its own content, the NFC and NFD names each their own", async () => {
  for (const [name] of TEXT_NAMES) {
    const response = await call("GET", `/file/${encodePath(name)}`);
    expect([name, response.status, await response.text()]).toEqual([name, 200, `content of ${JSON.stringify(name)}`]);
  }
  expect(await (await call("GET", `/file/${encodePath(joinPath(nameFromBytes(RAW_FOLDER), nameFromBytes(RAW_FILE)))}`)).text()).toBe("inside the raw folder");
});

test("each is renamed and deleted through the panel, nothing else touched", async () => {
  for (const [i, [name]] of TEXT_NAMES.entries()) {
    const moved = await call("POST", "/move", { from: name, to: `renamed-${i}` });
    expect([name, moved.status]).toEqual([name, 200]);
  }
  expect(await listed("")).toEqual(expect.arrayContaining(TEXT_NAMES.map((_, i) => `renamed-${i}`)));
  const inner = joinPath(nameFromBytes(RAW_FOLDER), nameFromBytes(RAW_FILE));
  expect((await call("POST", "/move", { from: inner, to: "inner.txt" })).status).toBe(200);
  expect(await (await call("GET", "/file/inner.txt")).text()).toBe("inside the raw folder");
  for (const [i] of TEXT_NAMES.entries()) expect((await call("DELETE", `/file/renamed-${i}`)).status).toBe(204);
  expect((await call("DELETE", `/file/${encodePath(nameFromBytes(RAW_FOLDER))}`)).status).toBe(204);
  expect((await call("DELETE", "/file/inner.txt")).status).toBe(204);
  // None of them is left, and what the template put there (motd.txt) is still there.
  const made = [...TEXT_NAMES.map(([name]) => Buffer.from(name).toString("hex")), RAW_FOLDER.toString("hex"), "696e6e65722e747874"];
  expect(onDisk().filter((hex) => made.includes(hex) || hex.startsWith("72656e616d6564"))).toEqual([]);
  expect(onDisk()).toContain(Buffer.from("motd.txt").toString("hex"));
});

test("without script, a row's forms reach names with a line break and with spaces at the end", async () => {
  await writeAsProcess(folder, [
    { path: "form\nline.txt", content: "a" },
    { path: "form-end ", content: "b" },
  ]);
  // What a browser sends: every line break in a field as CR LF (HTML's form submission).
  const asBrowser = (fields: Array<[string, string]>) => new URLSearchParams(fields.map(([key, value]) => [key, value.replace(/\r\n|\r|\n/g, "\r\n")])).toString();
  const post = (fields: Array<[string, string]>) => ctx.panel.request(`/server/${id}/files/act`, { token: owner, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: asBrowser(fields) });
  const { html } = await ctx.page(`/server/${id}?tab=files`, owner);
  for (const name of ["form\nline.txt", "form-end "]) {
    expect(html).toContain(`value="delete:${formName(name)}"`);
    // The row's Delete asks first; the question's form names the file the same way.
    const asked = await post([["folder", ""], ["row", `delete:${formName(name)}`]]);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(`name="pick" value="${formName(name)}"`);
    const done = await post([["folder", ""], ["do", "delete"], ["confirm", "1"], ["pick", formName(name)]]);
    expect(done.status).toBe(303);
    expect(onDisk()).not.toContain(Buffer.from(name).toString("hex"));
  }
});

test("without script, the forms inside a folder whose own name holds a line break reach that folder", async () => {
  const inside = "line\nfolder";
  await writeAsProcess(folder, [{ path: inside }, { path: `${inside}/doomed.txt`, content: "c" }]);
  const asBrowser = (fields: Array<[string, string]>) => new URLSearchParams(fields.map(([key, value]) => [key, value.replace(/\r\n|\r|\n/g, "\r\n")])).toString();
  const post = (form: string, fields: Array<[string, string]>) => ctx.panel.request(`/server/${id}/files/${form}`, { token: owner, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: asBrowser(fields) });
  const { html } = await ctx.page(filesPageUrl(id, inside), owner);
  // Every hidden "folder" on the page names it apart, and no field holds it with its line break.
  expect(html).toContain(`name="folder" value="${formPath(inside)}"`);
  expect(html).not.toContain('name="folder" value="line\nfolder"');
  const folderField = formPath(inside);
  const asked = await post("act", [["folder", folderField], ["row", `delete:${formName("doomed.txt")}`]]);
  expect(asked.status).toBe(200);
  expect(await asked.text()).toContain(`name="folder" value="${folderField}"`);
  const done = await post("act", [["folder", folderField], ["do", "delete"], ["confirm", "1"], ["pick", "doomed.txt"]]);
  expect([done.status, done.headers.get("location")]).toEqual([303, filesPageUrl(id, inside)]);
  expect(await listed(inside)).toEqual([]);
  const made = await post("new", [["folder", folderField], ["kind", "file"], ["name", "made.txt"]]);
  expect(made.status).toBe(303);
  expect(await listed(inside)).toEqual(["made.txt"]);
  // The move's destination field is filled with the folder; a browser strips its line break, and
  // that value named a decoy folder "linefolder": it means the folder it was filled with.
  await writeAsProcess(folder, [{ path: "linefolder" }]);
  const moving = await post("act", [["folder", folderField], ["row", `move:${formName("made.txt")}`]]);
  expect(await moving.text()).toContain(`name="target" value="/${inside}"`);
  await post("act", [["folder", folderField], ["do", "move"], ["confirm", "1"], ["pick", "made.txt"], ["target", "/linefolder"]]);
  expect(await listed("linefolder")).toEqual([]);
  expect(await listed(inside)).toEqual(["made.txt"]);
  for (const made of [inside, "linefolder"]) expect((await call("DELETE", `/file/${encodePath(made)}`)).status).toBe(204);
});

test("the activity log shows a path that is not UTF-8 with its bytes escaped, as the file manager does", async () => {
  await writeAsProcess(folder, [{ path: RAW_FILE, content: "logged" }]);
  expect((await call("DELETE", `/file/${encodePath(nameFromBytes(RAW_FILE))}`)).status).toBe(204);
  const { html } = await ctx.page(`/server/${id}?tab=activity`, ctx.admin.token);
  const table = html.slice(html.indexOf('data-testid="activity-list"'));
  expect(table).toContain("inner<mark");
  expect(table).toContain("\\xFF");
  expect(table).not.toContain(nameFromBytes(RAW_FILE));
});

test("a link whose text is not UTF-8 is copied with its exact bytes", async () => {
  const target = Buffer.concat([Buffer.from("to-"), Buffer.from([0xe9]), Buffer.from(".dat")]);
  await writeAsProcess(folder, [{ path: "raw-link", link: target }]);
  expect((await call("POST", "/copy", { from: "raw-link", to: "raw-link-copy" })).status).toBeLessThan(300);
  expect(readlinkSync(`${folder}/raw-link-copy`, { encoding: "buffer" }).toString("hex")).toBe(target.toString("hex"));
  for (const name of ["raw-link", "raw-link-copy"]) expect((await call("DELETE", `/file/${name}`)).status).toBe(204);
});
