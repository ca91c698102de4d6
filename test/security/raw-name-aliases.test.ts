// Attack: one file, two wire names (core/files/raw-name). Escapes of bytes that are UTF-8 text
// ("\uEFC3\uEFA9", the bytes of "é") name the same file as the text itself; the jail spells every
// path one way before it reaches the kernel. A check that compares the text of a path as it was
// given, before that spelling, sees two names where the kernel sees one. The least-right attacker
// here is a user with the file flags alone, on a template whose denylist names `*.jar` and a file
// whose name holds a character of the escapes' own range.
import { beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodePath } from "../../core/files";
import { nameFromBytes } from "../../core/files/raw-name";
import { FILE, LINK, rawTar, rawZip } from "../../daemon/files/extract-test-archives";
import { fileTree } from "../helpers/file-tree";
import { errorOf } from "../helpers/refusal";
import { panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let id = "";
let folder = "";
let token = "";

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("raw name aliases");
  folder = ctx.node.folder(id);
  const definition = await ctx.node.json("GET", `/daemon/server/${id}`);
  expect((await ctx.node.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: ["*.jar", "\uEF80.cfg"] })).status).toBe(204);
  token = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
}, 30_000);

/** The escaped spelling of a text's UTF-8 bytes: every byte above 0x7F as its escape. */
const spelled = (text: string) => Array.from(Buffer.from(text), (byte) => String.fromCharCode(byte < 0x80 ? byte : 0xef00 + byte)).join("");

const FROM_OUR_PAGE = { "sec-fetch-site": "same-origin" };

async function upload(name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const response = await ctx.panel.request(`/proxy/daemon/server/${id}/file/${name}`, { token, method: "PUT", body: form });
  expect(response.status).toBe(200);
}

// The sink unpacks into a staging folder and refuses any entry that passes through a link the
// archive made, judged by the entry's path as the archive spells it. "x -> ." and "é -> x/.."
// each stay inside by spelling, but "é" really leads to the staging folder's parent (the links
// are only followed on disk once everything is unpacked). Spelling the next entry's folder as
// escapes, "\uEFC3\uEFA9/server.jar", is not "é/server.jar" to that check, yet the jail opens
// "é": the entry lands beside the archive, replacing a file the denylist guards, before the
// on-disk check refuses the archive.
for (const kind of ["zip", "tar"] as const) {
  test(`an archive (${kind}) cannot write through its own link named by escapes of its text`, async () => {
    writeFileSync(join(folder, "server.jar"), "the template's own jar");
    const links: [string, string][] = [["x", "."], ["é", "x/.."]];
    const file = { name: `${spelled("é")}/server.jar`, data: "the attacker's jar" };
    const archive =
      kind === "zip"
        ? rawZip([...links.map(([name, data]) => ({ name, data, mode: LINK })), { ...file, mode: FILE }])
        : rawTar([...links.map(([name, link]) => ({ name, type: "2" as const, link })), file]);
    const name = `alias.${kind}`;
    await upload(name, archive);
    const before = fileTree(folder);
    const response = await ctx.panel.request(`/proxy/daemon/server/${id}/extract/${name}?destination=/`, { token, headers: FROM_OUR_PAGE });
    expect(await errorOf(response)).toEqual({ status: 403, code: "ErrPathOutside" });
    expect(readFileSync(join(folder, "server.jar"), "utf8")).toBe("the template's own jar");
    expect(fileTree(folder)).toEqual(before);
  });
}

// A pattern is text, and the file it names is its text's bytes. A name that holds U+EF80 is the
// bytes EE BE 80, whose wire form is three escapes ("\uEFEE\uEFBE\uEF80"); the pattern, matched
// as written against wire names, named the raw byte 0x80 instead, and the template's own file
// was read and written like any other.
test("a denylist pattern holding a character of the escape range guards the file its text names", async () => {
  const text = Buffer.from("\uEF80.cfg");
  writeFileSync(join(folder, "\uEF80.cfg"), "the template's own"); // node:fs writes a string as UTF-8: these bytes
  const wire = nameFromBytes(text);
  expect(wire).toBe("\uEFEE\uEFBE\uEF80.cfg");
  const call = (method: string, body?: BodyInit) => ctx.panel.request(`/proxy/daemon/server/${id}/file/${encodePath(wire)}`, { token, method, body });
  const read = await call("GET");
  expect([read.status, await read.text()]).toEqual([403, expect.stringContaining('"ErrFileDenied"')]);
  const form = new FormData();
  form.append("file", new Blob(["the attacker's"]), "x");
  const write = await call("PUT", form);
  expect([write.status, await write.text()]).toEqual([403, expect.stringContaining('"ErrFileDenied"')]);
  expect(readFileSync(join(folder, "\uEF80.cfg"), "utf8")).toBe("the template's own");
});
