// Moving a server's folder between two real nodes, as the panel drives it: the source offers the
// folder under a ticket, the target pulls it (files, a nested folder, a 50 MB file, links, modes)
// and both folders end up the same; a second pull with prune copies only what changed and removes
// what the source deleted; a pull cancelled half way through a 200 MB file leaves no partial file,
// and the next pull completes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "./helpers/node";
import { fileSha256 } from "./helpers/checksums";
import type { PullProgress } from "../core/transfer/wire";
import { writeAsProcess } from "./helpers/process-names";

let source: TestNode;
let target: TestNode;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestNode(), startTestNode()]);
});
afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
});

const folderOf = (node: TestNode, id: string) => node.folder(id);

/** Writes `bytes` random bytes to `path` in pieces, so a 200 MB file never sits in memory whole. */
function randomFile(path: string, bytes: number): void {
  const fd = openSync(path, "w");
  try {
    for (let left = bytes; left > 0; ) {
      const piece = randomBytes(Math.min(left, 8 * 1024 * 1024));
      writeSync(fd, piece);
      left -= piece.length;
    }
  } finally {
    closeSync(fd);
  }
}

/** Every entry under `root`: type, mode and SHA-256 of files, text of links; partial files included (there must be none). */
function tree(root: string, skip: (path: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (skip(path)) continue;
      const full = join(root, path);
      const stats = lstatSync(full);
      const mode = (stats.mode & 0o777).toString(8);
      if (stats.isSymbolicLink()) out[path] = `link ${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        out[path] = `dir ${mode}`;
        visit(path);
      } else out[path] = `file ${mode} ${stats.size} ${fileSha256(full)}`;
    }
  };
  visit("");
  return out;
}

async function createOnBoth(id: string): Promise<void> {
  await source.json("PUT", `/daemon/server/${id}`, echoTemplate());
  await target.json("PUT", `/daemon/server/${id}`, echoTemplate());
  mkdirSync(folderOf(source, id), { recursive: true });
}

async function offer(id: string): Promise<string> {
  const { ticket } = await source.json<{ ticket: string }>("POST", `/daemon/server/${id}/transfer/offer`);
  expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return ticket;
}

async function startPull(id: string, ticket: string, prune?: boolean): Promise<PullProgress> {
  const response = await target.call("POST", `/daemon/server/${id}/transfer/pull`, { source: source.node.url, ticket, ...(prune === undefined ? {} : { prune }) });
  const body = await response.json();
  expect([response.status, body.state]).toEqual([202, "copying"]);
  return body;
}

const progressOf = async (id: string): Promise<PullProgress> => target.json("GET", `/daemon/server/${id}/transfer/pull`);

async function finished(id: string, timeoutMs = 60_000): Promise<PullProgress> {
  let last!: PullProgress;
  await eventually(async () => (last = await progressOf(id)).state !== "copying", timeoutMs, "the pull to end");
  return last;
}

describe("moving a server's folder between nodes", () => {
  const ID = "moved";
  let ticket: string;

  test("a first pull copies every file, folder, mode and link; both folders are then the same", async () => {
    await createOnBoth(ID);
    const from = folderOf(source, ID);
    writeFileSync(join(from, "server.properties"), "motd=moved\n");
    writeFileSync(join(from, "run.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(join(from, "run.sh"), 0o755);
    mkdirSync(join(from, "world/region"), { recursive: true });
    writeFileSync(join(from, "world/level.dat"), randomBytes(10_000));
    randomFile(join(from, "world/region/r.0.0.mca"), 1_000_000);
    writeFileSync(join(from, "empty.txt"), "");
    mkdirSync(join(from, "private"));
    writeFileSync(join(from, "private/key.txt"), "k");
    chmodSync(join(from, "private"), 0o750);
    randomFile(join(from, "big.bin"), 50 * 1024 * 1024);
    symlinkSync("server.properties", join(from, "props-link"));
    symlinkSync("../server.properties", join(from, "world/up-link"));
    // Links that lead out are not sent: the target's server process would follow them.
    symlinkSync("/etc/passwd", join(from, "absolute-link"));
    symlinkSync("../../../outside", join(from, "world/escaping-link"));

    ticket = await offer(ID);
    await startPull(ID, ticket);
    const done = await finished(ID);
    expect(done).toMatchObject({ state: "done", files: 7, filesDone: 7 });
    expect(done.bytes).toBe(done.totalBytes);
    expect(done.totalBytes).toBe(11 + 18 + 10_000 + 1_000_000 + 0 + 1 + 50 * 1024 * 1024);
    expect(done.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(done.error).toBeUndefined();

    const leadsOut = (path: string) => path === "absolute-link" || path === "world/escaping-link";
    const copied = tree(folderOf(target, ID));
    expect(copied).toEqual(tree(from, leadsOut));
    expect(copied["run.sh"]).toStartWith("file 755 ");
    expect(copied["private"]).toBe("dir 750");
    expect(copied["props-link"]).toBe("link server.properties");
    expect(Object.keys(copied).some(leadsOut)).toBe(false);
  }, 120_000);

  test("a second pull with prune copies only what changed and removes what the source deleted", async () => {
    const from = folderOf(source, ID);
    const to = folderOf(target, ID);
    writeFileSync(join(from, "server.properties"), "motd=changed at the source\n");
    rmSync(join(from, "run.sh"));
    rmSync(join(from, "private"), { recursive: true });
    writeFileSync(join(to, "only-on-target.txt"), "left over");
    const inodes = (names: string[]) => Object.fromEntries(names.map((name) => [name, statSync(join(to, name)).ino]));
    const unchanged = ["big.bin", "world/level.dat", "world/region/r.0.0.mca", "empty.txt"];
    const before = inodes([...unchanged, "server.properties"]);

    await startPull(ID, ticket, true);
    const done = await finished(ID);
    expect(done).toMatchObject({ state: "done", files: 5, filesDone: 5 });
    // Skipped files count as done: the bytes reach the total although only one file was fetched.
    expect(done.bytes).toBe(done.totalBytes);
    // The unchanged files were not fetched again: the very same inodes are there.
    for (const name of unchanged) expect([name, statSync(join(to, name)).ino]).toEqual([name, before[name]!]);
    expect(statSync(join(to, "server.properties")).ino).not.toBe(before["server.properties"]);
    expect(readFileSync(join(to, "server.properties"), "utf8")).toBe("motd=changed at the source\n");
    for (const gone of ["run.sh", "private", "only-on-target.txt"]) expect(existsSync(join(to, gone))).toBe(false);
    expect(tree(to)).toEqual(tree(from, (path) => path === "absolute-link" || path === "world/escaping-link"));
  }, 120_000);

  test("without prune, entries the source lacks are kept", async () => {
    const to = folderOf(target, ID);
    writeFileSync(join(to, "local-note.txt"), "mine");
    await startPull(ID, ticket);
    expect((await finished(ID)).state).toBe("done");
    expect(readFileSync(join(to, "local-note.txt"), "utf8")).toBe("mine");
    rmSync(join(to, "local-note.txt"));
  }, 60_000);

  test("a name that is not UTF-8, made by the server's process, moves with its exact bytes", async () => {
    const name = Buffer.from([0x6f, 0x6c, 0x64, 0xe9, 0x2e, 0x64, 0x61, 0x74]); // "old\xE9.dat", Latin-1
    await writeAsProcess(folderOf(source, ID), [{ path: name, content: "walked by its bytes" }]);
    await startPull(ID, ticket);
    expect((await finished(ID)).state).toBe("done");
    const to = folderOf(target, ID);
    expect(readdirSync(to, { encoding: "buffer" }).some((entry) => entry.equals(name))).toBe(true);
    expect(readFileSync(Buffer.concat([Buffer.from(`${to}/`), name]), "utf8")).toBe("walked by its bytes");
  }, 60_000);

  test("the panel's calls answer as the contract says", async () => {
    expect((await target.call("GET", "/daemon/server/nobody/transfer/pull")).status).toBe(404);
    expect((await target.call("GET", `/daemon/server/${ID}-none/transfer/pull`)).status).toBe(404);
    expect((await source.call("POST", "/daemon/server/nobody/transfer/offer")).status).toBe(404);
    expect((await target.call("POST", "/daemon/server/nobody/transfer/pull", { source: source.node.url, ticket })).status).toBe(404);
    // The body is checked before anything runs.
    for (const body of [{ source: "ftp://x", ticket }, { source: source.node.url, ticket: "short" }, { source: `${source.node.url}?q=1`, ticket }, { source: source.node.url, ticket, prune: "yes" }]) {
      const response = await target.call("POST", `/daemon/server/${ID}/transfer/pull`, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 400]);
    }
    // A cancel of a pull that is not copying changes nothing; revoking is fine whether or not an offer exists.
    expect((await target.call("DELETE", `/daemon/server/${ID}/transfer/pull`)).status).toBe(204);
    expect((await progressOf(ID)).state).toBe("done");
    expect((await source.call("DELETE", `/daemon/server/${ID}/transfer/offer`)).status).toBe(204);
    expect((await source.call("DELETE", `/daemon/server/${ID}/transfer/offer`)).status).toBe(204);
  });
});

describe("cancelling a pull", () => {
  const ID = "cancelled";

  test("a pull cancelled half way through a 200 MB file ends cancelled, leaves no partial file, and the next pull completes", async () => {
    await createOnBoth(ID);
    const from = folderOf(source, ID);
    const to = folderOf(target, ID);
    const size = 200 * 1024 * 1024;
    randomFile(join(from, "huge.bin"), size);
    const ticket = await offer(ID);
    await startPull(ID, ticket);
    // A second pull while one copies is refused.
    const again = await target.call("POST", `/daemon/server/${ID}/transfer/pull`, { source: source.node.url, ticket });
    expect([again.status, (await again.json()).error.code]).toEqual([409, "ErrTransferInProgress"]);

    let seen: PullProgress;
    for (;;) {
      seen = await progressOf(ID);
      if (seen.bytes > 0 || seen.state !== "copying") break;
    }
    expect(seen.state).toBe("copying");
    expect((await target.call("DELETE", `/daemon/server/${ID}/transfer/pull`)).status).toBe(204);
    const cancelled = await progressOf(ID);
    expect(cancelled.state).toBe("cancelled");
    expect(cancelled.bytes).toBeGreaterThan(0);
    expect(cancelled.bytes).toBeLessThan(size);
    expect(readdirSync(to)).toEqual([]);

    await startPull(ID, ticket);
    const done = await finished(ID, 120_000);
    expect(done).toMatchObject({ state: "done", bytes: size, totalBytes: size, files: 1, filesDone: 1 });
    expect(tree(to)).toEqual(tree(from));
  }, 180_000);
});
