// Attacks on a node's add-on changes. The files and their names come from a source's answer, and
// the folder from the server's users: each attempt gets a catalogue error and the folder is as it
// was (no file added, none removed, nothing temporary left, the last change still the one to undo).
// - bytes other than the source's hash names: ErrModHashMismatch;
// - a file announced as 1 MB that never ends: cut at 1 MB, ErrModTooLarge;
// - a download URL on another host, or a redirect from the file host to another: refused;
// - file names that climb out, hide or hold a folder: refused before anything is fetched;
// - removing a symlink that points out of the folder, or a mods/ that is itself such a link;
// - two changes at once on one server;
// - bytes the folder's users write into a file while it downloads, or over a placed file (same size,
//   its old modification time set back): never remembered or named as what the source served.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import { tempDir } from "../helpers/process";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;
let endlessSent = 0;
const SLOW = ["PK the first part of the plugin, ", "and the rest of it"] as const;
let releaseSlow = () => {};
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
const host = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/files/good.jar") return new Response("good bytes");
    if (path === "/files/redirect.jar") return Response.redirect("http://127.0.0.1:1/elsewhere.jar", 302);
    if (path === "/files/slow.jar") {
      // Its first part, then the rest once the test has had its turn at the file being written.
      return new Response(new ReadableStream({ async start(controller) {
        controller.enqueue(new TextEncoder().encode(SLOW[0]));
        await slowReleased;
        controller.enqueue(new TextEncoder().encode(SLOW[1]));
        controller.close();
      } }));
    }
    if (path === "/files/endless.jar") {
      const chunk = new Uint8Array(64 * 1024);
      return new Response(new ReadableStream({ pull(controller) {
        endlessSent += chunk.byteLength;
        controller.enqueue(chunk);
      } }));
    }
    return new Response("no", { status: 404 });
  },
});
const origin = `http://127.0.0.1:${host.port}`;
const good = { url: `${origin}/files/good.jar`, fileName: "good.jar", size: 10, sha512: createHash("sha512").update("good bytes").digest("hex") };

beforeAll(async () => {
  if (resticHere) t = await startTestNode({ stopTimeoutMs: 2000, sources: { modrinthCdn: origin } });
});
afterAll(async () => {
  await t?.stop();
  host.stop(true);
});

const folder = () => t.folder("target");
const mods = () => join(folder(), "mods");
const snapshot = () => readdirSync(mods()).sort().map((name) => `${name}:${readFileSync(join(mods(), name), "utf8").slice(0, 40)}`);

async function started(body: unknown) {
  const response = await t.call("POST", "/daemon/server/target/mods/changes", body);
  return { status: response.status, body: (await response.json()) as ChangeStatus & { error?: { code: string } } };
}
async function ended(changeId: string): Promise<ChangeStatus> {
  let status: ChangeStatus | undefined;
  await eventually(async () => {
    status = (await t.json("GET", `/daemon/server/target/mods/changes/${changeId}`)) as ChangeStatus;
    return status.state !== "running";
  }, 30_000, "the change to end");
  return status!;
}

describe.skipIf(!resticHere)("a node's add-on changes under attack", () => {
  let undoable: string;
  let before: string[];
  beforeAll(async () => {
    expect((await t.call("PUT", "/daemon/server/target", echoTemplate())).status).toBe(201);
    mkdirSync(mods(), { recursive: true });
    writeFileSync(join(mods(), "kept.jar"), "kept");
    const first = await started({ folder: "mods", add: [good] });
    undoable = (await ended(first.body.changeId)).changeId;
    before = snapshot();
  }, 60_000);

  async function unchanged() {
    expect(snapshot()).toEqual(before);
    expect((await t.json("GET", "/daemon/server/target/mods/installed?folder=mods")).undoable).toBe(undoable);
  }

  test("bytes that are not what the hash says: failed, nothing written", async () => {
    const forged = { ...good, fileName: "forged.jar", sha512: "0".repeat(128) };
    const status = await ended((await started({ folder: "mods", add: [forged] })).body.changeId);
    expect(status).toMatchObject({ state: "failed", error: { code: "ErrModHashMismatch" }, added: [] });
    await unchanged();
  }, 60_000);

  test("a file announced as 1 MB that never ends: cut off after 1 MB", async () => {
    endlessSent = 0;
    const status = await ended((await started({ folder: "mods", add: [{ url: `${origin}/files/endless.jar`, fileName: "endless.jar", size: 1024 * 1024, sha512: "a".repeat(128) }] })).body.changeId);
    expect(status).toMatchObject({ state: "failed", error: { code: "ErrModTooLarge" } });
    // What was read past the announced size is at most what was in flight.
    expect(endlessSent).toBeLessThan(64 * 1024 * 1024);
    await unchanged();
  }, 60_000);

  test("a URL on a host that is not the file host's, or a redirect away from it: refused", async () => {
    for (const url of ["http://127.0.0.1:1/x.jar", "http://169.254.169.254/latest/meta-data/x.jar", `file:///etc/passwd`, `${origin.replace("http://", "http://user:pw@")}/files/good.jar`]) {
      const refused = await started({ folder: "mods", add: [{ ...good, url, fileName: "other.jar" }] });
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe("ErrModSourceNotAllowed");
    }
    const redirected = await ended((await started({ folder: "mods", add: [{ ...good, url: `${origin}/files/redirect.jar`, fileName: "redirected.jar" }] })).body.changeId);
    expect(redirected).toMatchObject({ state: "failed", error: { code: "ErrModSourceNotAllowed" } });
    await unchanged();
  }, 60_000);

  test("file names that climb out, hide, hold a folder or are not jars: refused before anything is fetched", async () => {
    for (const fileName of ["../escape.jar", "../../etc/cron.d/x.jar", "sub/dir.jar", ".hidden.jar", "x.jar\n", "x.sh", "", "a".repeat(200) + ".jar"]) {
      const refused = await started({ folder: "mods", add: [{ ...good, fileName }] });
      expect(refused.status).toBe(400);
    }
    for (const list of ["remove", "disable", "enable"]) {
      const refused = await started({ folder: "mods", [list]: ["../kept.jar"] });
      expect(refused.status).toBe(400);
    }
    expect((await started({ folder: "../mods", add: [good] })).status).toBe(400);
    expect((await started({ folder: "mods", add: [good], extra: true })).status).toBe(400);
    expect(existsSync(join(folder(), "escape.jar"))).toBe(false);
    await unchanged();
  });

  test("an origin the node would remember that is not a source's ids (a path, markup, another source, more fields): refused before anything is fetched", async () => {
    const origin = { source: "spiget", projectId: "9089", versionId: "9089.90890" };
    for (const bad of [{ ...origin, source: "elsewhere" }, { ...origin, projectId: "../../etc" }, { ...origin, versionId: ".." }, { ...origin, projectId: "<b>x</b>" }, { ...origin, extra: 1 }, { source: "spiget" }]) {
      const refused = await started({ folder: "mods", add: [{ ...good, fileName: "origin.jar", origin: bad }] });
      expect({ bad, status: refused.status }).toEqual({ bad, status: 400 });
    }
    expect(existsSync(join(t.config.dataDir, "mod-origins", "target.json"))).toBe(false);
    await unchanged();
  });

  test("a symlink pointing out of the folder cannot be removed or disabled through it; neither can a mods/ that is such a link", async () => {
    const outside = tempDir("kiln-outside-");
    writeFileSync(join(outside, "victim.jar"), "victim");
    symlinkSync(join(outside, "victim.jar"), join(mods(), "link.jar"));
    for (const list of ["remove", "disable"]) {
      const refused = await started({ folder: "mods", [list]: ["link.jar"] });
      expect(refused.status).toBe(404);
      expect(refused.body.error?.code).toBe("ErrNotFound");
    }
    expect(readFileSync(join(outside, "victim.jar"), "utf8")).toBe("victim");

    expect((await t.call("PUT", "/daemon/server/linked", echoTemplate())).status).toBe(201);
    symlinkSync(outside, t.folder("linked", "mods"));
    const response = await t.call("POST", "/daemon/server/linked/mods/changes", { folder: "mods", remove: ["victim.jar"] });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const listing = await t.json("GET", "/daemon/server/linked/mods/installed?folder=mods");
    expect(listing.files).toEqual([]);
    expect(readdirSync(outside)).toEqual(["victim.jar"]);
  }, 30_000);

  test("a second change while one runs on the server: ErrModChangeRunning", async () => {
    const slow = await started({ folder: "mods", add: [{ ...good, fileName: "slow.jar" }] });
    const second = await started({ folder: "mods", remove: ["kept.jar"] });
    expect(second.status).toBe(409);
    expect(second.body.error?.code).toBe("ErrModChangeRunning");
    await ended(slow.body.changeId);
    expect(existsSync(join(mods(), "kept.jar"))).toBe(true);
  }, 60_000);

  describe("what the node remembers of a file is about the bytes it checked, whatever the folder's users write", () => {
    const spiget = { source: "spiget", projectId: "9089", versionId: "9089.90890" };
    const forgedMods = () => t.folder("forged", "mods");
    const listed = async (name: string) => ((await t.json("GET", "/daemon/server/forged/mods/installed?folder=mods")).files as { fileName: string; sha512: string; origin?: unknown }[]).find((f) => f.fileName === name)!;
    async function changed(body: unknown): Promise<ChangeStatus> {
      const { changeId } = (await (await t.call("POST", "/daemon/server/forged/mods/changes", body)).json()) as ChangeStatus;
      let status: ChangeStatus | undefined;
      await eventually(async () => (status = (await t.json("GET", `/daemon/server/forged/mods/changes/${changeId}`)) as ChangeStatus).state !== "running", 30_000, "the change to end");
      return status!;
    }
    beforeAll(async () => {
      expect((await t.call("PUT", "/daemon/server/forged", echoTemplate())).status).toBe(201);
      mkdirSync(forgedMods(), { recursive: true });
    });

    test("bytes written into the file while it downloads: the file is not remembered as the source's", async () => {
      const bytes = SLOW.join("");
      const change = changed({ folder: "mods", add: [{ url: `${origin}/files/slow.jar`, fileName: "essentials.jar", size: bytes.length, sha512: createHash("sha512").update(bytes).digest("hex"), origin: spiget }] });
      // The server's process, watching its plugins, writes its own bytes into the file being downloaded.
      let partial: string | undefined;
      await eventually(() => (partial = readdirSync(forgedMods()).find((name) => name.endsWith(".kiln-partial") && statSync(join(forgedMods(), name)).size > 0)) !== undefined, 10_000, "the download to start");
      const fd = openSync(join(forgedMods(), partial!), "r+");
      writeSync(fd, "PK evil", 0);
      closeSync(fd);
      releaseSlow();
      expect((await change).state).toBe("done");
      const placed = await listed("essentials.jar");
      expect(readFileSync(join(forgedMods(), "essentials.jar"), "utf8").startsWith("PK evil")).toBe(true);
      expect(placed.origin).toBeUndefined();
    }, 30_000);

    test("other bytes of the same size with the old modification time: read again, not taken for the file the node placed", async () => {
      expect((await changed({ folder: "mods", add: [{ ...good, fileName: "placed.jar", origin: spiget }] })).state).toBe("done");
      const path = join(forgedMods(), "placed.jar");
      utimesSync(path, 1_700_000_000, 1_700_000_000);
      expect(await listed("placed.jar")).toMatchObject({ sha512: good.sha512, origin: spiget });
      writeFileSync(path, "evil bytes");
      utimesSync(path, 1_700_000_000, 1_700_000_000);
      const forged = await listed("placed.jar");
      expect(forged.sha512).toBe(createHash("sha512").update("evil bytes").digest("hex"));
      expect(forged.origin).toBeUndefined();
    }, 30_000);
  });

  test("the node's reads: a folder that is not mods or plugins, a server or change that is not there", async () => {
    for (const folder of ["../../etc", "config", "", "mods/../.."]) {
      const refused = await t.call("GET", `/daemon/server/target/mods/installed?folder=${encodeURIComponent(folder)}`);
      expect(refused.status).toBe(400);
    }
    expect((await t.call("GET", "/daemon/server/nope/mods/platform")).status).toBe(404);
    expect((await t.call("GET", "/daemon/server/target/mods/changes/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const listing = await t.json("GET", "/daemon/server/target/mods/installed?folder=mods");
    expect(JSON.stringify(listing)).not.toContain(t.config.dataDir);
  });
});
