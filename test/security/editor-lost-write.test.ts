// An editor's save must not silently replace what someone else wrote since the file was opened:
// the game rewriting its own file in place, another user saving first, a change that lands while
// the save's body is still on its way. A save carries the version it was edited from (If-Match
// with the ETag its read answered, or If-Unmodified-Since); any other version by then is 412
// ErrFileChanged, and the file keeps what the other writer put there, with no temporary file
// left. A save that names no version still replaces the file (PufferPanel's clients send none).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";

let rig: ServedPanel;
let editor: { token: string };
let other: { token: string };
let folder = "";
beforeAll(async () => {
  rig = await servedPanelWithServer("lost-write");
  folder = rig.node.folder(rig.id);
  const flags = { viewServerFiles: true, putServerFiles: true };
  editor = await rig.ctx.userWith(rig.id, flags);
  other = await rig.ctx.userWith(rig.id, flags);
});
afterAll(() => rig.stop());

const url = (file: string) => `http://127.0.0.1:${rig.server.port}/proxy/daemon/server/${rig.id}/file/${file}`;

async function open(file: string, token: string): Promise<{ text: string; etag: string; lastModified: string }> {
  const res = await fetch(url(file), { headers: { cookie: `kiln=${token}` } });
  expect(res.status).toBe(200);
  return { text: await res.text(), etag: res.headers.get("etag")!, lastModified: res.headers.get("last-modified")! };
}

function save(file: string, token: string, text: string, conditions: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([text]), file);
  return fetch(url(file), { method: "PUT", headers: { cookie: `kiln=${token}`, accept: "application/json", ...conditions }, body: form });
}

async function refusedCode(res: Response): Promise<[number, string]> {
  return [res.status, (await res.json()).error.code];
}

const leftovers = () => readdirSync(folder).filter((name) => name.endsWith(".kiln-partial"));

test("the game rewrites its file in place after the editor opened it: the save is refused, the game's text stays", async () => {
  writeFileSync(join(folder, "server.properties"), "motd=original\n");
  const opened = await open("server.properties", editor.token);
  expect(opened.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  // Same inode, same size: only the bytes and the modification time change.
  writeFileSync(join(folder, "server.properties"), "motd=gamewrot\n");
  expect(opened.text.length).toBe("motd=gamewrot\n".length);
  const refused = await save("server.properties", editor.token, "motd=edited\n", { "if-match": opened.etag });
  expect(await refusedCode(refused)).toEqual([412, "ErrFileChanged"]);
  expect(readFileSync(join(folder, "server.properties"), "utf8")).toBe("motd=gamewrot\n");
  expect(leftovers()).toEqual([]);
});

test("another user saves first: the second save, from the version both opened, is refused", async () => {
  writeFileSync(join(folder, "ops.json"), "[]");
  const mine = await open("ops.json", editor.token);
  const theirs = await open("ops.json", other.token);
  expect(theirs.etag).toBe(mine.etag);
  const first = await save("ops.json", other.token, '["them"]', { "if-match": theirs.etag });
  expect(first.status).toBe(200);
  const next = first.headers.get("etag");
  expect(next).not.toBe(mine.etag);
  expect(await refusedCode(await save("ops.json", editor.token, '["me"]', { "if-match": mine.etag }))).toEqual([412, "ErrFileChanged"]);
  expect(readFileSync(join(folder, "ops.json"), "utf8")).toBe('["them"]');
  // The tag a save answered is the next save's version: the same user saves twice in a row.
  const again = await save("ops.json", other.token, '["them","again"]', { "if-match": next! });
  expect(again.status).toBe(200);
  expect(readFileSync(join(folder, "ops.json"), "utf8")).toBe('["them","again"]');
  expect((await open("ops.json", editor.token)).etag).toBe(again.headers.get("etag")!);
  expect(leftovers()).toEqual([]);
});

test("the file changes while the save's body is still arriving: refused at the end, nothing replaced", async () => {
  writeFileSync(join(folder, "world.cfg"), "seed=1\n");
  const opened = await open("world.cfg", editor.token);
  const boundary = "kilnEditorBoundary";
  const encoder = new TextEncoder();
  let sendRest!: () => void;
  const rest = new Promise<void>((resolve) => (sendRest = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="world.cfg"\r\ncontent-type: text/plain\r\n\r\nseed=`));
      await rest;
      controller.enqueue(encoder.encode(`edited\n\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  const pending = fetch(url("world.cfg"), {
    method: "PUT",
    headers: { cookie: `kiln=${editor.token}`, accept: "application/json", "content-type": `multipart/form-data; boundary=${boundary}`, "if-match": opened.etag },
    body,
    // @ts-expect-error duplex for a streamed request body
    duplex: "half",
  });
  // The node has begun writing its temporary file: the game writes now.
  const deadline = Date.now() + 10_000;
  while (!leftovers().length && Date.now() < deadline) await Bun.sleep(20);
  expect(leftovers().length).toBe(1);
  writeFileSync(join(folder, "world.cfg"), "seed=2\n");
  sendRest();
  expect(await refusedCode(await pending)).toEqual([412, "ErrFileChanged"]);
  expect(readFileSync(join(folder, "world.cfg"), "utf8")).toBe("seed=2\n");
  expect(leftovers()).toEqual([]);
});

test("If-Unmodified-Since: a change after the date is refused, the date the read answered is kept to", async () => {
  writeFileSync(join(folder, "motd.txt"), "hello");
  utimesSync(join(folder, "motd.txt"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
  const opened = await open("motd.txt", editor.token);
  expect(opened.lastModified).toBe("Thu, 01 Jan 2026 00:00:00 GMT");
  writeFileSync(join(folder, "motd.txt"), "changed");
  expect(await refusedCode(await save("motd.txt", editor.token, "mine", { "if-unmodified-since": opened.lastModified }))).toEqual([412, "ErrFileChanged"]);
  expect(readFileSync(join(folder, "motd.txt"), "utf8")).toBe("changed");
  const now = new Date(statSync(join(folder, "motd.txt")).mtimeMs + 1000).toUTCString();
  expect((await save("motd.txt", editor.token, "mine", { "if-unmodified-since": now })).status).toBe(200);
  expect(readFileSync(join(folder, "motd.txt"), "utf8")).toBe("mine");
});

test("tags that name no version of the file now, and '*' where no file is: refused, nothing written", async () => {
  writeFileSync(join(folder, "banned.json"), "[]");
  const opened = await open("banned.json", editor.token);
  const forged = ['"AAAAAAAAAAAAAAAAAAAAAAAAAAA"', "garbage", '""', `${opened.etag.slice(0, -2)}"`, `"${"x".repeat(4000)}"`];
  for (const tag of forged) {
    expect([tag.slice(0, 30), ...(await refusedCode(await save("banned.json", editor.token, "[1]", { "if-match": tag })))]).toEqual([tag.slice(0, 30), 412, "ErrFileChanged"]);
  }
  expect(readFileSync(join(folder, "banned.json"), "utf8")).toBe("[]");
  // "*" asks that a file be there: a file made meanwhile by nobody is not created by a save meant to replace one.
  expect(await refusedCode(await save("gone.json", editor.token, "[1]", { "if-match": "*" }))).toEqual([412, "ErrFileChanged"]);
  expect(readdirSync(folder)).not.toContain("gone.json");
  // The same tag weakened by a proxy on its way, and in a list, still names this version.
  expect((await save("banned.json", editor.token, "[2]", { "if-match": `"nope", W/${opened.etag}` })).status).toBe(200);
  expect(readFileSync(join(folder, "banned.json"), "utf8")).toBe("[2]");
  expect(leftovers()).toEqual([]);
});

test("a save that names no version replaces whatever is there (PufferPanel's clients), and a reader without write right gets nothing written", async () => {
  writeFileSync(join(folder, "plain.txt"), "before");
  const opened = await open("plain.txt", editor.token);
  writeFileSync(join(folder, "plain.txt"), "someone");
  expect((await save("plain.txt", editor.token, "after")).status).toBe(200);
  expect(readFileSync(join(folder, "plain.txt"), "utf8")).toBe("after");
  const reader = await rig.ctx.userWith(rig.id, { viewServerFiles: true });
  const refused = await save("plain.txt", reader.token, "reader", { "if-match": (await open("plain.txt", reader.token)).etag });
  expect(refused.status).toBe(403);
  expect(readFileSync(join(folder, "plain.txt"), "utf8")).toBe("after");
  expect(opened.etag).not.toBe((await open("plain.txt", editor.token)).etag);
});
