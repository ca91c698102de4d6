// Attack: a server's own process names its files so that a move to another node leaves them
// behind without a word, and the source's folder is removed after the switch: a name holding a
// backslash, a Latin-1 name of 200 bytes (its wire form, each raw byte three bytes, is over 255),
// a name of the full 255 bytes (the temporary file written beside it was longer than a name may
// be), a link whose text is not UTF-8 (read as text, it was made pointing elsewhere). Every entry
// now arrives with its exact bytes. A path the target could not make (longer than PATH_MAX) makes
// the source refuse the manifest, naming it: the pull fails before anything is switched.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { fileSha256 } from "../helpers/checksums";
import { writeAsProcess } from "../helpers/process-names";
import type { PullProgress } from "../../core/transfer/wire";

let source: TestNode;
let target: TestNode;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestNode(), startTestNode()]);
});
afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
});

const bytes = (...parts: (string | number[] | Buffer)[]) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));
const repeat = (byte: number, count: number) => Buffer.alloc(count, byte);
const join = (...parts: Buffer[]) => Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [Buffer.from("/"), part])));

/** Every entry under `root` by its bytes (hex): type, mode and SHA-256 of files, the bytes of links' text. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: Buffer | null) => {
    const folder = rel ? join(Buffer.from(root), rel) : Buffer.from(root);
    for (const name of readdirSync(folder, { encoding: "buffer" })) {
      const path = rel ? join(rel, name) : name;
      const full = join(Buffer.from(root), path);
      const stats = lstatSync(full);
      const key = path.toString("hex");
      if (stats.isSymbolicLink()) out[key] = `link ${readlinkSync(full, { encoding: "buffer" }).toString("hex")}`;
      else if (stats.isDirectory()) {
        out[key] = `dir ${(stats.mode & 0o777).toString(8)}`;
        visit(path);
      } else out[key] = `file ${stats.size} ${fileSha256(full)}`;
    }
  };
  visit(null);
  return out;
}

async function pull(id: string): Promise<PullProgress> {
  const { ticket } = await source.json<{ ticket: string }>("POST", `/daemon/server/${id}/transfer/offer`);
  const started = await target.call("POST", `/daemon/server/${id}/transfer/pull`, { source: source.node.url, ticket });
  expect(started.status).toBe(202);
  let last!: PullProgress;
  await eventually(async () => (last = await target.json<PullProgress>("GET", `/daemon/server/${id}/transfer/pull`)).state !== "copying", 60_000, "the pull to end");
  return last;
}

async function createOnBoth(id: string): Promise<string> {
  await source.json("PUT", `/daemon/server/${id}`, echoTemplate());
  await target.json("PUT", `/daemon/server/${id}`, echoTemplate());
  const folder = source.folder(id);
  mkdirSync(folder, { recursive: true });
  return folder;
}

describe("a move to another node, of names a server's process made", () => {
  test("every entry arrives with its exact bytes: backslashes, long raw names, a full 255-byte name, links to them", async () => {
    const ID = "odd-names";
    const from = await createOnBoth(ID);
    const latin = bytes(repeat(0xe9, 200), ".dat"); // 204 bytes on disk, 612 in the wire form
    const full = bytes("a".repeat(251), ".txt"); // 255 bytes
    const fullRaw = bytes(repeat(0xff, 251), ".bin"); // 255 bytes on disk, 757 in the wire form
    const longFolder = bytes(repeat(0xe0, 250)); // an invalid lead byte each: 750 in the wire form
    await writeAsProcess(from, [
      { path: "back\\slash.txt", content: "a backslash is a byte" },
      { path: "dir\\with\\backslashes" },
      { path: "dir\\with\\backslashes/inside.txt", content: "in a backslashed folder" },
      { path: latin, content: "two hundred e-acutes" },
      { path: full, content: "two hundred and fifty-five bytes" },
      { path: fullRaw, content: "raw to the limit" },
      { path: longFolder },
      { path: join(longFolder, latin), content: "deep and long" },
      { path: "to-latin", link: latin },
      { path: join(longFolder, Buffer.from("up")), link: bytes("../", fullRaw) },
      { path: "link\\with\\backslash", link: "back\\slash.txt" },
    ]);
    const expected = tree(from);
    expect(Object.keys(expected)).toHaveLength(11);

    const done = await pull(ID);
    expect(done).toMatchObject({ state: "done", files: 6, filesDone: 6 });
    expect(tree(target.folder(ID))).toEqual(expected);
    expect(readFileSync(join(Buffer.from(target.folder(ID)), longFolder, latin), "utf8")).toBe("deep and long");
  }, 120_000);

  test("a long path of raw bytes moves too: the file's request names its bytes, not nine characters for each", async () => {
    const ID = "long-raw";
    const from = await createOnBoth(ID);
    // Twelve folders of 240 bytes that are not UTF-8 and a file: 2,900 bytes on disk, within
    // PATH_MAX, and some 26,000 characters as the wire form percent-encoded, past Bun's request limit.
    const levels = Array.from({ length: 12 }, (_, i) => repeat(0xe0 + (i % 16), 240));
    const entries = levels.map((_, i) => ({ path: join(...levels.slice(0, i + 1)) }));
    await writeAsProcess(from, [...entries, { path: join(...levels, bytes("deep", [0xff], ".dat")), content: "far down" }, { path: "near.txt", content: "near" }]);
    const expected = tree(from);

    const done = await pull(ID);
    expect(done).toMatchObject({ state: "done", files: 2, filesDone: 2 });
    expect(tree(target.folder(ID))).toEqual(expected);
  }, 120_000);

  test("hard links and special files are not carried, and the pull says so, naming them", async () => {
    const ID = "left-out";
    const from = await createOnBoth(ID);
    await writeAsProcess(from, [{ path: "kept.txt", content: "kept" }, { path: "twice.txt", content: "two names" }]);
    linkSync(`${from}/twice.txt`, `${from}/twice-again.txt`);
    expect(Bun.spawnSync(["mkfifo", `${from}/pipe`]).exitCode).toBe(0);

    const done = await pull(ID);
    expect(done).toMatchObject({ state: "done", files: 1, filesDone: 1 });
    expect(done.skipped).toEqual({
      count: 3,
      paths: [
        { path: "pipe", kind: "special" },
        { path: "twice-again.txt", kind: "hardlink" },
        { path: "twice.txt", kind: "hardlink" },
      ],
    });
    expect(readdirSync(target.folder(ID)).sort()).toEqual(["kept.txt"]);
  }, 120_000);

  test("a path longer than the target can make refuses the manifest, naming the problem, and nothing is copied", async () => {
    const ID = "too-deep";
    const from = await createOnBoth(ID);
    await writeAsProcess(from, [{ path: "kept.txt", content: "x" }]);
    // Seventeen folders of 250 bytes: the path is past PATH_MAX (4096). Made short, then each renamed
    // long from the deepest up, so every call's own path stays short.
    const script = `const fs = require("node:fs"); const short = "d/".repeat(17); fs.mkdirSync(short, { recursive: true }); fs.writeFileSync(short + "deep.txt", "lost?");
      for (let level = 17; level >= 1; level--) { const above = "d/".repeat(level - 1); fs.renameSync(above + "d", above + "d".repeat(250)); }`;
    const child = Bun.spawn([process.execPath, "-e", script], { cwd: from, stdout: "ignore", stderr: "pipe" });
    expect(await child.exited).toBe(0);

    const failed = await pull(ID);
    expect(failed).toMatchObject({ state: "failed", error: "ErrTransferManifest" });
    expect(readdirSync(target.folder(ID))).toEqual([]);
    // rm walks by descriptors, so it reaches past PATH_MAX (node:fs removal does not).
    expect(Bun.spawnSync(["rm", "-rf", `${from}/${"d".repeat(250)}`]).exitCode).toBe(0);
  }, 120_000);
});
