// The node's file API against real folders: listings, downloads, streamed multipart uploads that
// are atomic, folders, deletes, and the jail seen from HTTP (encoded names, links planted on disk).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, type TestNode } from "./helpers/node";
import { tempDir } from "./helpers/process";

let t: TestNode;
let folder: string;
const ID = "files1";
const outside = tempDir("kiln-files-outside-");
writeFileSync(join(outside, "secret.txt"), "outside");

beforeAll(async () => {
  t = await startTestNode();
  await t.json("PUT", `/daemon/server/${ID}`, echoTemplate());
  folder = t.folder(ID);
  mkdirSync(folder, { recursive: true });
});
afterAll(() => t.stop());

const url = (path: string) => `${t.node.url}/daemon/server/${ID}/${path}`;

function upload(path: string, content: BlobPart, field = "file"): Promise<Response> {
  const form = new FormData();
  form.append("note", "a field before the file is skipped");
  form.append(field, new Blob([content]), "ignored-name.bin");
  return t.fetch(url(`file/${path}`), { method: "PUT", body: form });
}

describe("file API", () => {
  test("upload, list, download, replace and delete a file", async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const put = await upload("configs/server.properties", bytes);
    expect(put.status).toBe(404); // the folder does not exist yet
    expect((await t.fetch(url("file/configs?folder=true"), { method: "PUT" })).status).toBe(204);
    const ok = await upload("configs/server.properties", bytes);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ path: "configs/server.properties", size: bytes.length });

    const listing = await (await t.fetch(url("file/configs"))).json();
    expect(listing.path).toBe("configs");
    expect(listing.files).toEqual([{ name: "server.properties", isFile: true, size: bytes.length, modifyTime: expect.any(Number), mode: 0o644 }]);
    expect(Math.abs(listing.files[0].modifyTime - Date.now() / 1000)).toBeLessThan(60);

    const download = await t.fetch(url("file/configs/server.properties"));
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);

    await upload("configs/server.properties", "replaced");
    expect(readFileSync(join(folder, "configs/server.properties"), "utf8")).toBe("replaced");
    expect(readdirSync(join(folder, "configs"))).toEqual(["server.properties"]); // no temporary left

    expect((await t.fetch(url("file/configs"), { method: "DELETE" })).status).toBe(204);
    expect(existsSync(join(folder, "configs"))).toBe(false);
  });

  test("the root lists with path '' and folders come first", async () => {
    mkdirSync(join(folder, "world"), { recursive: true });
    writeFileSync(join(folder, "a.txt"), "a");
    const root = await (await t.fetch(url("file/"))).json();
    expect(root.path).toBe("");
    const names = root.files.map((f: { name: string }) => f.name);
    expect(names.indexOf("world")).toBeLessThan(names.indexOf("a.txt"));
    expect(root.files.find((f: { name: string }) => f.name === "world")).toMatchObject({ isFile: false, size: 0 });
  });

  test("names with spaces, '?', '#', '%' and non-ASCII round-trip", async () => {
    const name = "weird name ?#%é.txt";
    expect((await upload(encodeURIComponent(name), "odd")).status).toBe(200);
    expect(readFileSync(join(folder, name), "utf8")).toBe("odd");
    const back = await t.fetch(url(`file/${encodeURIComponent(name)}`));
    expect(await back.text()).toBe("odd");
  });

  test("a cut-off or malformed upload leaves no file and no temporary behind", async () => {
    const boundary = "----kilnboundary";
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\n${"x".repeat(100_000)}`;
    const response = await t.fetch(url("file/partial.bin"), { method: "PUT", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: truncated });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("ErrFieldRequired");
    const noField = await upload("nofield.bin", "data", "other");
    expect(noField.status).toBe(400);
    const notMultipart = await t.fetch(url("file/plain.bin"), { method: "PUT", body: "plain" });
    expect(notMultipart.status).toBe(400);

    // The client goes away half way through a streamed body.
    const abort = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\n`));
        controller.enqueue(new Uint8Array(512 * 1024));
        await Bun.sleep(200);
        abort.abort();
      },
    });
    // @ts-expect-error duplex for a streamed request body
    await t.fetch(url("file/aborted.bin"), { method: "PUT", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: stream, duplex: "half", signal: abort.signal }).catch(() => undefined);
    await Bun.sleep(300);
    const left = readdirSync(folder).filter((name) => /partial|nofield|plain|aborted|\.part$/.test(name));
    expect(left).toEqual([]);
  });

  test("hostile paths are refused and touch nothing outside", async () => {
    symlinkSync(outside, join(folder, "link-out"));
    symlinkSync(join(outside, "secret.txt"), join(folder, "file-link-out"));
    const attempts: Array<[string, string]> = [
      ["GET", "file/link-out/secret.txt"],
      ["GET", "file/file-link-out"],
      ["GET", "file/link-out"],
      ["GET", "file/..%2F..%2Fetc%2Fpasswd"],
      ["GET", "file/a%00b"],
      ["PUT", "file/link-out/planted.txt"],
      ["PUT", "file/link-out/newdir?folder=true"],
      ["DELETE", "file/link-out/secret.txt"],
    ];
    for (const [method, path] of attempts) {
      const response = method === "PUT" && !path.includes("folder") ? await upload(path.slice("file/".length), "planted") : await t.fetch(url(path), { method });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect((await response.json()).error.code).toBe("ErrPathOutside");
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("outside");
    // Deleting the link removes the link, never what it points to.
    expect((await t.fetch(url("file/link-out"), { method: "DELETE" })).status).toBe(204);
    expect(existsSync(join(outside, "secret.txt"))).toBe(true);
  });

  test("the server's folder itself cannot be deleted; a missing path is ErrNotFound", async () => {
    const root = await t.fetch(url("file/"), { method: "DELETE" });
    expect(root.status).toBe(403);
    const missing = await t.fetch(url("file/nope/nothing.txt"));
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("ErrNotFound");
  });

  test("archive a folder (a taken name gets ' (2)'), extract it elsewhere, refuse unknown kinds", async () => {
    mkdirSync(join(folder, "pack/inner"), { recursive: true });
    writeFileSync(join(folder, "pack/inner/level.dat"), "level");
    const archive = (destination: string) => t.fetch(url(`archive/${destination}`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(["pack"]) });
    expect(await (await archive("pack.zip")).json()).toEqual({ path: "pack.zip" });
    expect(await (await archive("pack.zip")).json()).toEqual({ path: "pack (2).zip" });
    mkdirSync(join(folder, "unpacked"));
    const extracted = await t.fetch(url(`extract/${encodeURIComponent("pack (2).zip")}?destination=unpacked`));
    expect(extracted.status).toBe(204);
    expect(readFileSync(join(folder, "unpacked/pack/inner/level.dat"), "utf8")).toBe("level");
    writeFileSync(join(folder, "old.rar"), "not really");
    const rar = await t.fetch(url("extract/old.rar"));
    expect(rar.status).toBe(400);
    expect((await rar.json()).error.code).toBe("ErrUnsupportedArchive");
    const outsideDest = await t.fetch(url("extract/pack.zip?destination=../.."));
    expect(outsideDest.status).toBe(403);
    const empty = await t.fetch(url("archive/x.zip"), { method: "POST", headers: { "content-type": "application/json" }, body: "[]" });
    expect(empty.status).toBe(400);
  });

  test("a request without the node token is refused", async () => {
    expect((await fetch(url("file/a.txt"))).status).toBe(401);
  });
});

describe("file manager operations", () => {
  const post = (path: string, body: unknown) => t.fetch(url(path), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const code = async (response: Response) => (await response.json()).error.code;

  test("listings carry each entry's permission mode", async () => {
    writeFileSync(join(folder, "moded.sh"), "#!/bin/sh\n");
    chmodSync(join(folder, "moded.sh"), 0o750);
    const root = await (await t.fetch(url("file/"))).json();
    expect(root.files.find((f: { name: string }) => f.name === "moded.sh").mode).toBe(0o750);
  });

  test("rename and move: never over something, never a folder into itself, the target folder must exist", async () => {
    mkdirSync(join(folder, "mv/sub"), { recursive: true });
    writeFileSync(join(folder, "mv/a.txt"), "a");
    writeFileSync(join(folder, "mv/b.txt"), "b");
    expect(await (await post("move", { from: "mv/a.txt", to: "mv/renamed.txt" })).json()).toEqual({ path: "mv/renamed.txt" });
    expect(readFileSync(join(folder, "mv/renamed.txt"), "utf8")).toBe("a");
    expect(existsSync(join(folder, "mv/a.txt"))).toBe(false);
    // A leading "/" is the server's folder, as for archives.
    expect((await post("move", { from: "/mv/renamed.txt", to: "/mv/sub/renamed.txt" })).status).toBe(200);
    expect(readFileSync(join(folder, "mv/sub/renamed.txt"), "utf8")).toBe("a");

    const clash = await post("move", { from: "mv/b.txt", to: "mv/sub/renamed.txt" });
    expect([clash.status, await code(clash)]).toEqual([409, "ErrFileExists"]);
    expect(readFileSync(join(folder, "mv/sub/renamed.txt"), "utf8")).toBe("a");
    const intoItself = await post("move", { from: "mv", to: "mv/sub/mv" });
    expect([intoItself.status, await code(intoItself)]).toEqual([400, "ErrMoveIntoItself"]);
    const noFolder = await post("move", { from: "mv/b.txt", to: "nowhere/b.txt" });
    expect([noFolder.status, await code(noFolder)]).toEqual([404, "ErrNotFound"]);
    const missing = await post("move", { from: "mv/none.txt", to: "mv/x.txt" });
    expect(missing.status).toBe(404);
    const noTarget = await post("move", { from: "mv/b.txt" });
    expect([noTarget.status, await code(noTarget)]).toEqual([400, "ErrFieldRequired"]);
    const root = await post("move", { from: "/", to: "elsewhere" });
    expect([root.status, await code(root)]).toEqual([403, "ErrNoPermission"]);
    const notJson = await t.fetch(url("move"), { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect([notJson.status, await code(notJson)]).toEqual([400, "ErrInvalidJson"]);
  });

  test("copy a file and a folder tree (modes kept, links inside kept), refuse a copy into itself or over a name", async () => {
    mkdirSync(join(folder, "cp/tree/deep"), { recursive: true });
    writeFileSync(join(folder, "cp/tree/deep/x.bin"), new Uint8Array(70_000).map((_, i) => i % 256));
    writeFileSync(join(folder, "cp/tree/run.sh"), "echo hi\n");
    chmodSync(join(folder, "cp/tree/run.sh"), 0o755);
    symlinkSync("deep/x.bin", join(folder, "cp/tree/to-x"));
    expect(await (await post("copy", { from: "cp/tree", to: "cp/tree-copy" })).json()).toEqual({ path: "cp/tree-copy" });
    expect(readFileSync(join(folder, "cp/tree-copy/deep/x.bin"))).toEqual(readFileSync(join(folder, "cp/tree/deep/x.bin")));
    expect(statSync(join(folder, "cp/tree-copy/run.sh")).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(folder, "cp/tree-copy/to-x"))).toBe("deep/x.bin");
    expect((await post("copy", { from: "cp/tree/run.sh", to: "cp/run-copy.sh" })).status).toBe(200);
    expect(readFileSync(join(folder, "cp/run-copy.sh"), "utf8")).toBe("echo hi\n");

    const clash = await post("copy", { from: "cp/tree/run.sh", to: "cp/run-copy.sh" });
    expect([clash.status, await code(clash)]).toEqual([409, "ErrFileExists"]);
    const intoItself = await post("copy", { from: "cp/tree", to: "cp/tree/deep/again" });
    expect([intoItself.status, await code(intoItself)]).toEqual([400, "ErrMoveIntoItself"]);
    expect(existsSync(join(folder, "cp/tree/deep/again"))).toBe(false);
  });

  test("chmod: three octal digits, no setuid/setgid/sticky, not the folder itself", async () => {
    writeFileSync(join(folder, "perm.txt"), "p");
    expect((await post("mode", { path: "perm.txt", mode: "600" })).status).toBe(204);
    expect(statSync(join(folder, "perm.txt")).mode & 0o7777).toBe(0o600);
    expect((await post("mode", { path: "perm.txt", mode: 0o640 })).status).toBe(204);
    expect(statSync(join(folder, "perm.txt")).mode & 0o7777).toBe(0o640);
    for (const mode of ["4755", "2755", "1777", "8", "rwx", "", 0o4755, -1]) {
      const refused = await post("mode", { path: "perm.txt", mode });
      expect([mode, refused.status, await code(refused)]).toEqual([mode, 400, "ErrFileModeInvalid"]);
    }
    expect(statSync(join(folder, "perm.txt")).mode & 0o7777).toBe(0o640);
    const root = await post("mode", { path: "/", mode: "777" });
    expect(root.status).toBe(403);
  });

  test("search by name below a folder, case-insensitive, links found but never walked into", async () => {
    mkdirSync(join(folder, "find/a/b"), { recursive: true });
    writeFileSync(join(folder, "find/a/b/Level.dat"), "l");
    writeFileSync(join(folder, "find/level-old.dat"), "l");
    symlinkSync("..", join(folder, "find/a/loop-level"));
    symlinkSync(outside, join(folder, "find/out-level"));
    const answer = await (await t.fetch(url(`search?path=find&q=LEVEL`))).json();
    expect(answer.truncated).toBe(false);
    expect(answer.results.map((r: { path: string }) => r.path).sort()).toEqual(["find/a/b/Level.dat", "find/a/loop-level", "find/level-old.dat", "find/out-level"]);
    const none = await t.fetch(url("search?path=find"));
    expect(none.status).toBe(400);
    const out = await t.fetch(url("search?path=../..&q=passwd"));
    expect(out.status).toBe(403);
  });

  test("a zip download of several entries, named after the shared folder, nothing written", async () => {
    mkdirSync(join(folder, "zipme/inner"), { recursive: true });
    writeFileSync(join(folder, "zipme/one.txt"), "one");
    writeFileSync(join(folder, "zipme/inner/two.txt"), "two");
    const before = readdirSync(join(folder, "zipme")).sort();
    const response = await t.fetch(url("zip?path=zipme/one.txt&path=zipme/inner"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''zipme.zip");
    const bytes = new Uint8Array(await response.arrayBuffer());
    const names = zipNames(bytes);
    expect(names.sort()).toEqual(["inner/", "inner/two.txt", "one.txt"]);
    expect(readdirSync(join(folder, "zipme")).sort()).toEqual(before);
    const nothing = await t.fetch(url("zip"));
    expect(nothing.status).toBe(400);
  });
});

/** The names in a zip's central directory. */
function zipNames(bytes: Uint8Array): string[] {
  const view = Buffer.from(bytes);
  const names: string[] = [];
  for (let at = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = view.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    const length = view.readUInt16LE(at + 28);
    names.push(view.subarray(at + 46, at + 46 + length).toString("utf8"));
  }
  return names;
}
