// A node's changes to a server's add-on folder, with the real restic taking the backup before each
// and a local file host standing in for the source's (the node downloads only from the host its
// config names): files added are there byte for byte, a removed and a disabled file go, the
// listing knows each file by its hashes, and undo puts the folder back as it was before the last
// change, once; a crash on the first run after a change names it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import murmurhash from "murmurhash";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "./helpers/node";
import { hasRestic } from "./helpers/require-part";
import { startFileHost } from "./helpers/file-host";
import type { ChangeStatus } from "../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;
const files = startFileHost();

beforeAll(async () => {
  if (resticHere) t = await startTestNode({ stopTimeoutMs: 2000, sources: { modrinthCdn: files.origin } });
});
afterAll(async () => {
  await t?.stop();
  files.stop();
});

const sha512 = (bytes: Uint8Array) => createHash("sha512").update(bytes).digest("hex");
/** A file on the host, as a change's add entry names it. */
const hostedFile = (name: string, text: string) => files.host(name, text);

const folder = (id: string) => t.folder(id);
async function change(id: string, body: unknown): Promise<ChangeStatus> {
  const started = await t.call("POST", `/daemon/server/${id}/mods/changes`, body);
  expect(started.status).toBe(202);
  const { changeId } = (await started.json()) as ChangeStatus;
  let status: ChangeStatus | undefined;
  await eventually(async () => {
    status = (await t.json("GET", `/daemon/server/${id}/mods/changes/${changeId}`)) as ChangeStatus;
    return status.state !== "running";
  }, 30_000, "the change to end");
  return status!;
}

describe.skipIf(!resticHere)("changes to a server's mods folder", () => {
  beforeAll(async () => {
    expect((await t.call("PUT", "/daemon/server/modded", echoTemplate())).status).toBe(201);
    mkdirSync(join(folder("modded"), "mods"), { recursive: true });
    writeFileSync(join(folder("modded"), "mods", "old-lib-1.0.jar"), "old lib");
    writeFileSync(join(folder("modded"), "mods", "by-hand.jar"), "uploaded by hand");
  });

  let first: ChangeStatus;
  test("two files added and one removed after a backup; the listing knows each by its hashes (SHA-1, SHA-512, SHA-256, CurseForge's fingerprint: MurmurHash2 of the bytes without spaces)", async () => {
    const a = hostedFile("alpha-1.0.jar", "alpha one");
    const b = hostedFile("beta-2.0.jar", "beta two");
    first = await change("modded", { folder: "mods", add: [a, b], remove: ["old-lib-1.0.jar"], note: "+alpha +beta -old" });
    expect(first).toMatchObject({ state: "done", added: ["alpha-1.0.jar", "beta-2.0.jar"], removed: ["old-lib-1.0.jar"], downloaded: 2, total: 2 });
    expect(first.backup).toMatch(/^[0-9a-f]{8}$/);
    expect(readFileSync(join(folder("modded"), "mods", "alpha-1.0.jar"), "utf8")).toBe("alpha one");
    expect(existsSync(join(folder("modded"), "mods", "old-lib-1.0.jar"))).toBe(false);
    // Nothing temporary is left beside the files.
    expect(readdirSync(join(folder("modded"), "mods")).sort()).toEqual(["alpha-1.0.jar", "beta-2.0.jar", "by-hand.jar"]);

    const backups = await t.json("GET", "/daemon/server/modded/backups");
    expect(backups.backups.map((b: { note?: string }) => b.note)).toContain("before: +alpha +beta -old");

    const listing = await t.json("GET", "/daemon/server/modded/mods/installed?folder=mods");
    expect(listing.undoable).toBe(first.changeId);
    const byHand = listing.files.find((f: { fileName: string }) => f.fileName === "by-hand.jar");
    expect(byHand).toEqual({ fileName: "by-hand.jar", size: 16, sha1: createHash("sha1").update("uploaded by hand").digest("hex"), sha512: sha512(new TextEncoder().encode("uploaded by hand")), sha256: createHash("sha256").update("uploaded by hand").digest("hex"), fingerprint: murmurhash.v2(Buffer.from("uploadedbyhand"), 1), enabled: true });
  }, 60_000);

  test("a disable renames to .disabled; the listing says so under the plain name", async () => {
    const status = await change("modded", { folder: "mods", disable: ["beta-2.0.jar"] });
    expect(status).toMatchObject({ state: "done", disabled: ["beta-2.0.jar"] });
    expect(existsSync(join(folder("modded"), "mods", "beta-2.0.jar.disabled"))).toBe(true);
    const listing = await t.json("GET", "/daemon/server/modded/mods/installed?folder=mods");
    expect(listing.files.find((f: { fileName: string }) => f.fileName === "beta-2.0.jar").enabled).toBe(false);
    expect(listing.undoable).toBe(status.changeId);
  }, 60_000);

  test("only the last change can be undone, once; undo puts the folder back as it was before it", async () => {
    const refused = await t.call("POST", `/daemon/server/modded/mods/changes/${first.changeId}/undo`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("ErrModUndoUnavailable");

    const update = hostedFile("alpha-1.1.jar", "alpha one point one");
    const last = await change("modded", { folder: "mods", add: [update], remove: ["alpha-1.0.jar", "by-hand.jar"], enable: ["beta-2.0.jar"] });
    expect(last.state).toBe("done");
    expect(readdirSync(join(folder("modded"), "mods")).sort()).toEqual(["alpha-1.1.jar", "beta-2.0.jar"]);

    const undone = await t.json("POST", `/daemon/server/modded/mods/changes/${last.changeId}/undo`);
    expect(undone.state).toBe("undone");
    expect(readdirSync(join(folder("modded"), "mods")).sort()).toEqual(["alpha-1.0.jar", "beta-2.0.jar.disabled", "by-hand.jar"]);
    expect(readFileSync(join(folder("modded"), "mods", "by-hand.jar"), "utf8")).toBe("uploaded by hand");

    const again = await t.call("POST", `/daemon/server/modded/mods/changes/${last.changeId}/undo`);
    expect((await again.json()).error.code).toBe("ErrModUndoUnavailable");
    expect((await t.json("GET", "/daemon/server/modded/mods/installed?folder=mods")).undoable).toBeNull();
  }, 60_000);

  test("an update that keeps its file name: the old bytes come back on undo", async () => {
    const same = hostedFile("by-hand.jar", "a newer build");
    const status = await change("modded", { folder: "mods", add: [same] });
    expect(status.state).toBe("done");
    expect(readFileSync(join(folder("modded"), "mods", "by-hand.jar"), "utf8")).toBe("a newer build");
    await t.json("POST", `/daemon/server/modded/mods/changes/${status.changeId}/undo`);
    expect(readFileSync(join(folder("modded"), "mods", "by-hand.jar"), "utf8")).toBe("uploaded by hand");
  }, 60_000);
});

describe.skipIf(!resticHere)("a crash after a change", () => {
  test("the first run after a change that crashes names the change; the next crash does not", async () => {
    expect((await t.call("PUT", "/daemon/server/fragile", echoTemplate({ command: "sh -c 'echo broken; exit 3'" }))).status).toBe(201);
    const made = await change("fragile", { folder: "mods", add: [hostedFile("fragile-mod.jar", "breaks the server")], note: "+Fragile mod" });
    expect(made).toMatchObject({ state: "done" });
    const crashOf = async () => ((await t.json("GET", "/daemon/server/fragile/status")) as { crash?: { afterChange?: unknown; at: number } }).crash;
    await t.call("POST", "/daemon/server/fragile/start");
    await eventually(async () => (await crashOf()) !== undefined, 15_000, "the crash");
    expect((await crashOf())!.afterChange).toEqual({ changeId: made.changeId, note: "+Fragile mod" });
    const first = (await crashOf())!.at;
    await t.call("POST", "/daemon/server/fragile/start");
    await eventually(async () => ((await crashOf())?.at ?? first) !== first, 15_000, "the second crash");
    expect((await crashOf())!.afterChange).toBeUndefined();
  }, 60_000);
});
