// Attacks on what reading and uploading a modpack costs the node and the panel. A holder of
// manageMods uploads a .mrpack of their own making and plans it again and again:
// - each read hashes every override file under a staging folder's random name: those hashes must
//   not stay in the node's memory after the read (they did, for as long as the server existed);
// - a pack of more entries than a pack needs is refused (ErrArchiveTooLarge) before it is hashed;
// - reads and uploads for one server run one at a time (ErrTooManyRequests while one runs), so
//   uploads in parallel cannot each write 256 MB beside the folder, outside its disk space;
// - the plans the panel keeps for one user are bounded in size, not only in number.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ZipFile } from "yazl";
import { Jail } from "../../daemon/files/jail";
import { DEFAULT_EXTRACT_LIMITS } from "../../daemon/files/extract-limits";
import { InstalledFiles } from "../../daemon/mods/installed";
import { InstalledPacks } from "../../daemon/mods/installed-packs";
import { PackUploads } from "../../daemon/mods/pack-uploads";
import { MAX_PACK_ENTRIES, readPack } from "../../daemon/mods/pack-stage";
import { openDatabase } from "../../db";
import { MAX_PLAN_CHARS_PER_USER, PlanStore } from "../../server/services/mods/plan-store";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";

const INDEX = { formatVersion: 1, game: "minecraft", versionId: "1", name: "Many", files: [], dependencies: { minecraft: "1.21.1", "fabric-loader": "0.15.11" } };

/** A .mrpack with `overrides` small override files. */
async function packOf(overrides: number): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(INDEX)), "modrinth.index.json");
  // Stored: yazl deflates each buffer on its own, 1.4 ms an entry here (14 s for the largest pack).
  for (let i = 0; i < overrides; i++) zip.addBuffer(Buffer.from(`${i}`), `overrides/config/${"a".repeat(100)}-${i}.toml`, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

describe("reading an uploaded pack on the node", () => {
  const root = tempDir("kiln-pack-read-");
  const folder = join(root, "server");
  mkdirSync(folder);
  const jail = new Jail(folder);
  const installed = new InstalledFiles();
  const uploads = new PackUploads(join(root, "uploads"));
  const deps = { fileOrigins: [], packFileOrigins: [], uploads, packs: new InstalledPacks(join(root, "packs")), installed, extractLimits: DEFAULT_EXTRACT_LIMITS };
  /** The hashes the node remembers (InstalledFiles' cache). */
  const remembered = () => (installed as unknown as { hashes: Map<string, unknown> }).hashes.size;
  const stored = async (bytes: Uint8Array<ArrayBuffer>) => uploads.store("s1", new Blob([bytes]).stream());

  test("reading the same pack again and again leaves no hashes behind", async () => {
    // Any hash left behind is one too many (each read's names are new): a few hundred files show it.
    const pack = await stored(await packOf(300));
    for (let i = 0; i < 3; i++) {
      const reading = await readPack(jail, "s1", { upload: pack.upload, sha512: pack.sha512, note: "" }, deps);
      expect(reading.overrides.length).toBe(300);
    }
    expect(remembered()).toBe(0);
  }, 120_000);

  test("a pack of more entries than a pack needs is refused before it is read", async () => {
    const pack = await stored(await packOf(MAX_PACK_ENTRIES + 1));
    const read = readPack(jail, "s1", { upload: pack.upload, sha512: pack.sha512, note: "" }, deps);
    await expect(read).rejects.toMatchObject({ code: "ErrArchiveTooLarge", metadata: { maxEntries: MAX_PACK_ENTRIES } });
    expect(remembered()).toBe(0);
  }, 120_000);
});

describe("one pack read or upload at a time per server", () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ stopTimeoutMs: 2000 });
    expect((await t.call("PUT", "/daemon/server/packs", echoTemplate())).status).toBe(201);
  });
  afterAll(async () => {
    await t?.stop();
  });

  test("a second upload, or a read, while an upload runs: ErrTooManyRequests; afterwards both work", async () => {
    const url = `${t.node.url}/daemon/server/packs/mods/packs/uploads`;
    const bytes = await packOf(3);
    // An upload whose body comes only when the test lets it.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({ async start(controller) {
      controller.enqueue(bytes.subarray(0, 10));
      await released;
      controller.enqueue(bytes.subarray(10));
      controller.close();
    } });
    const first = t.fetch(url, { method: "POST", body: slow, headers: { "content-type": "application/octet-stream" }, duplex: "half" } as RequestInit);
    await Bun.sleep(300);
    const second = await t.fetch(url, { method: "POST", body: bytes, headers: { "content-type": "application/octet-stream" } });
    expect({ status: second.status, code: ((await second.json()) as any).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    const sha512 = createHash("sha512").update(bytes).digest("hex");
    const read = await t.call("POST", "/daemon/server/packs/mods/packs/read", { upload: "00000000-0000-4000-8000-000000000000", sha512, note: "" });
    expect({ status: read.status, code: ((await read.json()) as any).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const upload = (await done.json()) as { upload: string; sha512: string };
    expect(upload.sha512).toBe(sha512);
    // One at a time, not one for ever: the next ones are taken.
    const again = await t.fetch(url, { method: "POST", body: bytes, headers: { "content-type": "application/octet-stream" } });
    expect(again.status).toBe(201);
    const reading = await t.call("POST", "/daemon/server/packs/mods/packs/read", { upload: upload.upload, sha512, note: "" });
    expect(reading.status).toBe(200);
  }, 60_000);
});

test("the plans one user keeps are bounded in size: their own oldest go, another user's plan stays", async () => {
  const db = await openDatabase(":memory:");
  const store = new PlanStore<{ planId: string; overrides: string }>("test-plan");
  const big = (planId: string) => ({ planId, overrides: "x".repeat(4 * 1024 * 1024) });
  await store.keep(db, "s1", 1, { planId: "theirs", overrides: "" });
  for (let i = 0; i < 20; i++) await store.keep(db, "s2", 2, big(`big-${i}`));
  const kept: string[] = [];
  for (let i = 0; i < 20; i++) if (await store.take(db, "s2", 2, `big-${i}`).then(() => true, () => false)) kept.push(`big-${i}`);
  expect(kept.length * 4 * 1024 * 1024).toBeLessThanOrEqual(MAX_PLAN_CHARS_PER_USER);
  // The newest stay.
  expect(kept.at(-1)).toBe("big-19");
  expect(await store.take(db, "s1", 1, "theirs")).toEqual({ planId: "theirs", overrides: "" });
});
