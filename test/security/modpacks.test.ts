// Attacks on modpacks, by a user of the server without manageMods, by another holder of it, and by
// the pack itself (its author writes the index and the overrides; a source can serve other bytes
// than it announced). Each gets a catalogue error and the server's folder is unchanged: no file
// written outside it or in it, no staging folder left behind.
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PanelWithNode } from "../helpers/panel-node";
import { fabricServer, modrinthPanelForFile, modsApi } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";
import { SERVER_FLAGS } from "../../core/scopes";
import { MAX_PACK_BYTES } from "../../core/mods/pack";
import type { ModpackSpec } from "../helpers/modrinth-fixture";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
const folder = () => ctx.node.folder(id);
const { call: packs, followed } = modsApi(() => ctx, () => id, "modpacks");
const GEYSER = "CeSpw2Km";
const LITHIUM = "nMhjKWVE";

/** The folder's entries, as a test compares them before and after an attack. */
const entries = () => readdirSync(folder(), { recursive: true }).map(String).sort();

const basePack = (slug: string): ModpackSpec => ({ slug, title: slug, gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: GEYSER }] });

/** A pack whose index is rewritten by `index`: its plan must be refused with `code`, nothing left behind. */
async function refusedPlan(slug: string, code: string, spec: Partial<ModpackSpec>) {
  const before = entries();
  const made = await modrinth.addModpack({ ...basePack(slug), ...spec });
  const answer = await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId });
  expect({ slug, status: answer.status < 500 || answer.status === 502, code: answer.body.error?.code }).toEqual({ slug, status: true, code });
  expect(entries()).toEqual(before);
  return made;
}

describe.skipIf(!resticHere)("modpacks under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await fabricServer(ctx, "Target", "1.20.4");
    writeFileSync(join(folder(), "server.properties"), "motd=mine\n");
  });

  test("a user with every other flag but manageMods is refused on every route", async () => {
    const others = Object.fromEntries(SERVER_FLAGS.filter((f) => f !== "manageMods").map((f) => [f, true]));
    const user = await ctx.userWith(id, others);
    const made = await modrinth.addModpack(basePack("flags"));
    const plan = (await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId })).body;
    for (const [method, path, body] of [["GET", "/search?q=x"], ["GET", "/installed"], ["POST", "/uploads", {}], ["POST", "/plan", { projectId: made.projectId }], ["POST", `/plan/${plan.planId}/apply`]] as const) {
      const answer = await packs(method, path, body, user.token);
      expect({ path, status: answer.status, code: answer.body.error?.code }).toEqual({ path, status: 403, code: "ErrNoPermission" });
    }
    // Another holder of manageMods cannot apply someone else's plan.
    const other = await ctx.userWith(id, { manageMods: true });
    expect((await packs("POST", `/plan/${plan.planId}/apply`, undefined, other.token)).body.error.code).toBe("ErrModPlanUnknown");
    expect(existsSync(join(folder(), "mods"))).toBe(false);
  });

  test("an index that names a place outside the folder or one of Kiln's own is refused before anything is fetched", async () => {
    for (const [i, path] of ["../escape.jar", "/etc/cron.d/x", "mods/../../escape.jar", "mods/./x.jar", ".kiln-pack-x/y.jar", "mods\\..\\x.jar", "a/b/c/d/e/f/g/h/i.jar", "mods/\u0000.jar", ""].entries()) {
      const fetched = modrinth.requests.filter((r) => r.server === "cdn" && r.path.includes(GEYSER)).length;
      await refusedPlan(`path-${i}`, "ErrModPackInvalid", { index: (index) => ({ ...index, files: (index.files as Record<string, unknown>[]).map((f) => ({ ...f, path })) }) });
      expect(modrinth.requests.filter((r) => r.server === "cdn" && r.path.includes(GEYSER)).length).toBe(fetched);
    }
    expect(existsSync(join(ctx.node.config.dataDir, "servers", "escape.jar"))).toBe(false);
  }, 60_000);

  test("overrides that name one of Kiln's own places, and an index that is not Modrinth's format, are refused", async () => {
    await refusedPlan("hidden-override", "ErrModPackInvalid", { overrides: { ".kiln-pack-1/x.txt": "x" } });
    await refusedPlan("no-index", "ErrModPackInvalid", { index: () => "not an index" });
    await refusedPlan("other-game", "ErrModPackInvalid", { index: (index) => ({ ...index, game: "terraria" }) });
    await refusedPlan("huge-count", "ErrModPackInvalid", { index: (index) => ({ ...index, files: Array.from({ length: 501 }, () => (index.files as unknown[])[0]) }) });
  }, 60_000);

  test("a pack file on a host the node does not download from is refused", async () => {
    await refusedPlan("other-host", "ErrModSourceNotAllowed", { index: (index) => ({ ...index, files: (index.files as Record<string, unknown>[]).map((f) => ({ ...f, downloads: ["http://169.254.169.254/latest/meta-data.jar"] })) }) });
  }, 30_000);

  test("a pack announced small and served large, and a mod whose bytes are not the index's: the change fails and nothing changes", async () => {
    // The .mrpack itself: announced at 100 bytes, served as 5 MB.
    const big = await modrinth.addModpack(basePack("big"));
    modrinth.announceSize(big.versionId, 100, 5 * 1024 * 1024);
    const answer = await packs("POST", "/plan", { source: "modrinth", projectId: big.projectId });
    expect(answer.body.error.code).toBe("ErrModTooLarge");

    // A mod the index lists: its host now serves other bytes than the index's hash.
    const before = entries();
    const made = await modrinth.addModpack({ ...basePack("tampered"), overrides: { "server.properties": "motd=pack\n" } });
    const plan = (await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId })).body;
    expect(plan.blocked).toBe(false);
    modrinth.setFileBytes(GEYSER, new TextEncoder().encode("not the jar the index hashed"));
    const started = await packs("POST", `/plan/${plan.planId}/apply`);
    let status = await followed(started.body.changeId);
    expect(status).toMatchObject({ state: "failed", error: { code: "ErrModHashMismatch" }, added: [] });
    expect(entries()).toEqual(before);
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=mine\n");
  }, 60_000);

  test("a pack that would put a file where a folder is, or over the template's fileDenylist: nothing changes", async () => {
    const before = entries();
    const made = await modrinth.addModpack({ ...basePack("folder-in-the-way"), mods: [], overrides: { "config/a.txt": "a", "libraries": "a file where the loader's folder is" } });
    const plan = (await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId })).body;
    const started = await packs("POST", `/plan/${plan.planId}/apply`);
    let status = await followed(started.body.changeId);
    expect(status).toMatchObject({ state: "failed", error: { code: "ErrFileExists" } });
    expect(entries()).toEqual(before);

    // The template keeps server.properties from users: a pack is a user's hands too.
    const definition = await (await ctx.node.call("GET", `/daemon/server/${id}`)).json();
    expect((await ctx.node.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: ["server.properties"] })).status).toBe(204);
    const denied = await modrinth.addModpack({ ...basePack("denied"), mods: [], overrides: { "config/b.txt": "b", "server.properties": "motd=pack\n" } });
    const deniedPlan = (await packs("POST", "/plan", { source: "modrinth", projectId: denied.projectId })).body;
    const deniedStart = await packs("POST", `/plan/${deniedPlan.planId}/apply`);
    status = await followed(deniedStart.body.changeId);
    expect(status).toMatchObject({ state: "failed", error: { code: "ErrFileDenied" } });
    expect(entries()).toEqual(before);
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=mine\n");
  }, 60_000);

  test("uploads: one past the size a pack may have is cut off and not kept; another server's upload is not this server's", async () => {
    const uploads = join(ctx.node.config.dataDir, "mod-uploads");
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const tooLarge = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_PACK_BYTES) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const answer = await ctx.panel.request(`/api/servers/${id}/modpacks/uploads`, { method: "POST", token: ctx.admin.token, body: tooLarge });
    expect((await answer.json()).error.code).toBe("ErrModTooLarge");
    expect(readdirSync(join(uploads, id))).toEqual([]);

    const made = await modrinth.addModpack(basePack("elsewhere"));
    const stored = await (await ctx.panel.request(`/api/servers/${id}/modpacks/uploads`, { method: "POST", token: ctx.admin.token, body: modrinth.jar(made.versionId) })).json();
    const here = id;
    id = await fabricServer(ctx, "Other", "1.20.4");
    expect((await packs("POST", "/plan", { upload: stored.upload, sha512: stored.sha512 })).body.error.code).toBe("ErrNotFound");
    expect((await packs("POST", "/plan", { upload: "../../mod-changes", sha512: stored.sha512 })).body.error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "upload" } });
    id = here;
  }, 60_000);

  test("an update never removes through a link: a mods/ turned into a link out of the folder keeps what is outside", async () => {
    // Lithium: Geyser's host serves other bytes since the attack above.
    const made = await modrinth.addModpack({ ...basePack("linked"), mods: [{ versionId: LITHIUM }] });
    const plan = (await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId })).body;
    const started = await packs("POST", `/plan/${plan.planId}/apply`);
    const first = await followed(started.body.changeId);
    expect({ state: first.state, error: first.error }).toEqual({ state: "done", error: undefined });
    // The user swaps mods/ for a link to a folder outside holding the same file, bytes and all.
    const outside = mkdtempSync(join(tmpdir(), "kiln-pack-outside-"));
    const jar = modrinth.version(LITHIUM).files.find((f) => f.primary)!.filename;
    cpSync(join(folder(), "mods"), outside, { recursive: true });
    rmSync(join(folder(), "mods"), { recursive: true });
    symlinkSync(outside, join(folder(), "mods"));
    const newer = await modrinth.addModpackVersion(made.projectId, { ...basePack("linked"), versionNumber: "2.0.0", mods: [], overrides: { "config/two.txt": "2" } });
    const update = (await packs("POST", "/plan", { source: "modrinth", projectId: made.projectId, versionId: newer.versionId })).body;
    expect(update.removes).toEqual([]);
    const applied = await packs("POST", `/plan/${update.planId}/apply`);
    const second = await followed(applied.body.changeId);
    expect({ state: second.state, error: second.error }).toEqual({ state: "done", error: undefined });
    expect(existsSync(join(outside, jar))).toBe(true);
    rmSync(join(folder(), "mods"));
    rmSync(outside, { recursive: true, force: true });
  }, 60_000);
});
