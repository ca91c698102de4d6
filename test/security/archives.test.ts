// Attack: hostile archives, uploaded and extracted through the panel's proxy by a user with the
// file flags, on a node whose config sets low extraction limits. Zip-slip names, links out and
// files written through them, hard links out, bombs, too many entries and damaged archives must
// each answer their catalogue error, write nothing outside, and leave nothing half-extracted: the
// node's documented behaviour is all or nothing (a hidden staging folder, removed on failure).
import { beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { FOLDER, LINK, rawTar, rawZip } from "../../daemon/files/extract-test-archives";
import { fileTree } from "../helpers/file-tree";
import { jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";
import { zipNames } from "../helpers/zip-names";

/** Low on purpose (the node config's extractMaxBytes/extractMaxEntries): a bomb is cheap to build. */
const LIMITS = { maxBytes: 1024 * 1024, maxEntries: 20 };
let ctx: PanelWithNode;
let id = "";
let folder = "";
let token = "";
/** The node's data folder: the servers' folders and everything beside them. */
let dataDir = "";

panelForAll((fresh) => (ctx = fresh), { extractLimits: LIMITS });
beforeAll(async () => {
  id = await ctx.createServer("archives");
  dataDir = ctx.node.config.dataDir;
  folder = join(dataDir, "servers", id);
  mkdirSync(join(folder, "dest"), { recursive: true });
  // A neighbour the archives aim at: another server's folder, beside this one.
  mkdirSync(join(dataDir, "servers", "neighbour"), { recursive: true });
  writeFileSync(join(dataDir, "servers", "neighbour", "keep.txt"), "neighbour");
  token = (await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true })).token;
});

async function upload(name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const response = await ctx.panel.request(`/proxy/daemon/server/${id}/file/${name}`, { token, method: "PUT", body: form });
  expect(response.status).toBe(200);
}

/** Extract is a GET that changes state: with a cookie it must come from the panel's own page (middleware/same-origin). */
const FROM_OUR_PAGE = { "sec-fetch-site": "same-origin" };

/** Uploads the archive, extracts it into dest/ and expects `code`; nothing anywhere in the node's data changed but the upload. */
async function expectExtractRefused(name: string, bytes: Buffer, code: string): Promise<void> {
  await upload(name, bytes);
  const before = fileTree(dataDir);
  const response = await ctx.panel.request(`/proxy/daemon/server/${id}/extract/${name}?destination=dest`, { token, headers: FROM_OUR_PAGE });
  const body = await response.text();
  expect([name, response.status < 500, JSON.parse(body).error.code]).toEqual([name, true, code]);
  expect(body).not.toContain(dataDir);
  // The whole tree, staging folders included: nothing written, nothing half-extracted.
  expect(fileTree(dataDir)).toEqual(before);
}

describe("zip-slip and links: refused whole with ErrPathOutside", () => {
  const zips: Record<string, Parameters<typeof rawZip>[0]> = {
    "parent.zip": [{ name: "fine.txt", data: "ok" }, { name: "../../neighbour/keep.txt", data: "overwritten" }],
    "absolute.zip": [{ name: "/tmp/kiln-zip-slip", data: "x" }],
    "drive.zip": [{ name: "C:\\Windows\\evil", data: "x" }, { name: "C:/evil", data: "x" }],
    "backslash.zip": [{ name: "..\\..\\neighbour\\keep.txt", data: "x" }],
    "link-then-write.zip": [{ name: "sub/", mode: FOLDER }, { name: "sub/out", data: "../../..", mode: LINK }, { name: "sub/out/neighbour/keep.txt", data: "x" }],
    "link-absolute.zip": [{ name: "etc", data: "/etc", mode: LINK }, { name: "etc/evil", data: "x" }],
  };
  for (const [name, entries] of Object.entries(zips)) test(name, () => expectExtractRefused(name, rawZip(entries), "ErrPathOutside"));

  const tars: Record<string, Parameters<typeof rawTar>[0]> = {
    "parent.tar": [{ name: "../../neighbour/keep.txt", data: "x" }],
    "hard-out.tar": [{ name: "passwd", type: "1", link: "/etc/passwd" }],
    "hard-climb.tgz": [{ name: "keep", type: "1", link: "../../neighbour/keep.txt" }],
    "link-then-write.tar.gz": [{ name: "up", type: "2", link: "../.." }, { name: "up/neighbour/keep.txt", data: "x" }],
    "chain.tar": [{ name: "x", type: "2", link: "." }, { name: "y", type: "2", link: "x/../.." }],
  };
  for (const [name, entries] of Object.entries(tars)) test(name, () => expectExtractRefused(name, name.endsWith(".tar") ? rawTar(entries) : gzipSync(rawTar(entries)), "ErrPathOutside"));
});

describe("bombs and damage: refused at the node's limits, nothing half-extracted", () => {
  const zeros = Buffer.alloc(16 * 1024 * 1024);
  const noise = randomBytes(20_000);
  const many = Array.from({ length: LIMITS.maxEntries + 1 }, (_, i) => ({ name: `f${i}`, data: "x" }));
  const cases: Array<[string, () => Buffer, string]> = [
    ["bomb.zip", () => rawZip([{ name: "a.txt", data: "first, written before the bomb" }, { name: "zeros", data: zeros, deflate: true }]), "ErrArchiveTooLarge"],
    ["bomb.tar.gz", () => gzipSync(rawTar([{ name: "zeros", data: zeros }])), "ErrArchiveTooLarge"],
    ["bomb.gz", () => gzipSync(zeros), "ErrArchiveTooLarge"],
    ["many.zip", () => rawZip(many), "ErrArchiveTooLarge"],
    ["many.tar", () => rawTar(many), "ErrArchiveTooLarge"],
    // Cut in the middle of data that does not compress, so the cut is really inside the entry.
    ["broken.zip", () => rawZip([{ name: "a.txt", data: noise, deflate: true }]).subarray(0, 10_000), "ErrArchiveBroken"],
    ["cut.tgz", () => gzipSync(rawTar([{ name: "a", data: noise }])).subarray(0, 10_000), "ErrArchiveBroken"],
    ["not-a.tar", () => Buffer.alloc(1024, 0x41), "ErrArchiveBroken"],
  ];
  for (const [name, build, code] of cases) test(`${name}: ${code}`, () => expectExtractRefused(name, build(), code));

  test("the limits answer their values, so a user knows what the node allows", async () => {
    const response = await ctx.panel.request(`/proxy/daemon/server/${id}/extract/bomb.zip?destination=dest`, { token, headers: FROM_OUR_PAGE });
    expect((await response.json()).error).toMatchObject({ code: "ErrArchiveTooLarge", metadata: LIMITS });
    expect(readdirSync(join(folder, "dest"))).toEqual([]);
  });
});

// Making a zip: links are followed inside the server's folder, so a chain of folders each holding
// two links to the one before names the same folders 2^n times. Each real folder is walked once
// per archive; a zip of more entries than the node's extraction limit is refused before it is written.
describe("zip bombs made of links: each real folder walked once, at most maxEntries entries", () => {
  /** chain/f0 holds a file; chain/f{i} holds two links to f{i-1}. */
  function linkChain(base: string, depth: number): void {
    mkdirSync(join(folder, base, "f0"), { recursive: true });
    writeFileSync(join(folder, base, "f0", "x"), "x");
    for (let i = 1; i <= depth; i++) {
      mkdirSync(join(folder, base, `f${i}`));
      symlinkSync(`../f${i - 1}`, join(folder, base, `f${i}`, "l1"));
      symlinkSync(`../f${i - 1}`, join(folder, base, `f${i}`, "l2"));
    }
  }

  test("a short chain: the second link to a walked folder is an empty folder, not its tree again", async () => {
    linkChain("short", 3);
    const response = await ctx.panel.request(`/proxy/daemon/server/${id}/archive/short/f3.zip`, { token, ...jsonInit("POST", ["short/f3"]) });
    expect(response.status).toBe(200);
    // Followed each time, this was 1 + 2·(1 + 2·(1 + 2·2)) = 23 entries.
    expect(await zipNames(join(folder, "short", "f3.zip"))).toEqual(["f3/", "f3/l1/", "f3/l1/l1/", "f3/l1/l1/l1/", "f3/l1/l1/l1/x", "f3/l1/l1/l2/", "f3/l1/l2/", "f3/l2/"]);
  });

  test("twenty links deep: refused at once with ErrArchiveTooLarge, nothing written, the node answering", async () => {
    linkChain("deep", 20);
    // The server's folder, where the zip would be written (the node's own files beside it may change meanwhile).
    const before = fileTree(folder);
    const started = Date.now();
    const response = await ctx.panel.request(`/proxy/daemon/server/${id}/archive/deep/bomb.zip`, { token, ...jsonInit("POST", ["deep/f20"]) });
    expect([response.status, (await response.json()).error.code]).toEqual([413, "ErrArchiveTooLarge"]);
    const download = await ctx.panel.request(`/proxy/daemon/server/${id}/zip?path=deep/f20`, { token });
    expect([download.status, (await download.json()).error.code]).toEqual([413, "ErrArchiveTooLarge"]);
    // Walked once per folder, this is milliseconds; followed through every link, 2^20 folders.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fileTree(folder)).toEqual(before);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/file/deep`, { token })).status).toBe(200);
  });
});

