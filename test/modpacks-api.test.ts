// Modpacks through the panel's API onto an existing Fabric 1.20.4 server, against the local
// Modrinth (test/helpers/modrinth-fixture: recorded project and version documents; the .mrpack
// itself is made there, since no pack is among the recorded answers). The search asks for
// modpacks for the server's loader and game version; the plan is read by the node from the pack
// (files the server gets, client-only ones left out, overrides and server-overrides, what each
// replaces); applying places it after a backup, every file as the source hashed it; the undo
// puts the folder back. A pack for another loader and Minecraft version is planned but blocked.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PanelWithNode } from "./helpers/panel-node";
import { fabricServer, modrinthPanelForFile, modsApi, paperServer } from "./helpers/mods";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
const folder = () => ctx.node.folder(id);
const { call: mods } = modsApi(() => ctx, () => id);
const { call: packs, apply: applied } = modsApi(() => ctx, () => id, "modpacks");

// Geyser (a required mod), Fabric API (no env: every side), Lithium marked client-only.
const GEYSER = "CeSpw2Km";
const FABRIC_API = "BPX6fK06";
const LITHIUM = "nMhjKWVE";
let pack: { projectId: string; versionId: string };
let forgePack: { projectId: string; versionId: string };

describe.skipIf(!resticHere)("a Modrinth modpack onto a Fabric server", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await fabricServer(ctx, "Packed", "1.20.4");
    writeFileSync(join(folder(), "server.properties"), "motd=mine\n");
    mkdirSync(join(folder(), "config"), { recursive: true });
    writeFileSync(join(folder(), "config", "keep.txt"), "the user's own");
    pack = await modrinth.addModpack({
      slug: "kiln-test-pack",
      title: "Kiln Test Pack",
      gameVersion: "1.20.4",
      loader: ["fabric-loader", "0.15.11"],
      mods: [{ versionId: GEYSER, server: "required" }, { versionId: FABRIC_API }, { versionId: LITHIUM, server: "unsupported" }],
      overrides: { "config/pack.toml": "pack = true\n", "server.properties": "motd=from overrides\n" },
      serverOverrides: { "server.properties": "motd=from server-overrides\n" },
      clientOverrides: { "options.txt": "fov=90\n" },
    });
    forgePack = await modrinth.addModpack({ slug: "kiln-forge-pack", title: "Kiln Forge Pack", gameVersion: "1.20.1", loader: ["forge", "47.2.0"], mods: [] });
  });

  test("a search asks for modpacks for the server's loader and game version", async () => {
    const { status, body } = await packs("GET", "/search?q=kiln");
    expect(status).toBe(200);
    expect(body.hits.map((h: { projectId: string }) => h.projectId)).toEqual([pack.projectId]);
    const facets = JSON.parse(new URL(`http://x${modrinth.requests.findLast((r) => r.path.startsWith("/v2/search"))!.path}`).searchParams.get("facets")!);
    expect(facets).toEqual([["project_type:modpack"], ["categories:fabric"], ["versions:1.20.4"]]);
  });

  let planned: any;
  test("the plan is the pack as the node read it: the server's files, the overrides laid over them, what each replaces", async () => {
    const { status, body } = await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId });
    expect(status).toBe(200);
    planned = body;
    const geyser = modrinth.version(GEYSER).files.find((f) => f.primary)!;
    const fabricApi = modrinth.version(FABRIC_API).files.find((f) => f.primary)!;
    expect(body).toMatchObject({ source: "modrinth", projectId: pack.projectId, versionId: pack.versionId, title: "Kiln Test Pack", versionNumber: "1.0.0", loader: "fabric", loaderVersion: "0.15.11", gameVersion: "1.20.4", warnings: [], blocked: false });
    expect(body.files).toEqual([
      { path: `mods/${geyser.filename}`, size: geyser.size, replaces: false },
      { path: `mods/${fabricApi.filename}`, size: fabricApi.size, replaces: false },
    ]);
    expect(body.overrides.sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path))).toEqual([
      { path: "config/pack.toml", size: 12, replaces: false },
      { path: "server.properties", size: "motd=from server-overrides\n".length, replaces: true },
    ]);
    // Reading left nothing in the folder.
    expect(readdirSync(folder()).filter((n) => n.startsWith(".kiln-pack-"))).toEqual([]);
  }, 30_000);

  let change: any;
  test("applied after a backup: every file as the source hashed it, server-overrides over overrides, nothing of the client's", async () => {
    change = await applied(planned.planId);
    expect(change).toMatchObject({ state: "done", total: 2, downloaded: 2 });
    expect(change.backup).toMatch(/^[0-9a-f]{8}$/);
    const geyser = modrinth.version(GEYSER).files.find((f) => f.primary)!;
    expect(new Uint8Array(readFileSync(join(folder(), "mods", geyser.filename)))).toEqual(modrinth.jar(GEYSER));
    expect(existsSync(join(folder(), "mods", modrinth.version(LITHIUM).files.find((f) => f.primary)!.filename))).toBe(false);
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=from server-overrides\n");
    expect(readFileSync(join(folder(), "config", "pack.toml"), "utf8")).toBe("pack = true\n");
    expect(readFileSync(join(folder(), "config", "keep.txt"), "utf8")).toBe("the user's own");
    expect(existsSync(join(folder(), "options.txt"))).toBe(false);
    expect(readdirSync(folder()).filter((n) => n.startsWith(".kiln-pack-"))).toEqual([]);
    // The Mods tab lists the pack's mods, recognised by their hashes.
    const installed = (await mods("GET", "/installed")).body;
    expect(installed.map((f: { versionId?: string }) => f.versionId).sort()).toEqual([FABRIC_API, GEYSER].sort());
    // A plan is used once.
    expect((await packs("POST", `/plan/${planned.planId}/apply`)).body.error.code).toBe("ErrModPlanUnknown");
  }, 60_000);

  test("the undo puts the folder back as it was", async () => {
    expect((await mods("GET", "/changes")).body).toEqual({ undoable: change.changeId });
    const undone = await mods("POST", `/changes/${change.changeId}/undo`);
    expect(undone.body.state).toBe("undone");
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=mine\n");
    expect(existsSync(join(folder(), "config", "pack.toml"))).toBe(false);
    expect(readFileSync(join(folder(), "config", "keep.txt"), "utf8")).toBe("the user's own");
    expect(readdirSync(join(folder(), "mods"))).toEqual([]);
  }, 30_000);

  test("an uploaded .mrpack: planned from the node's copy, applied, undone; a plan naming other bytes is refused", async () => {
    const bytes = modrinth.jar(pack.versionId);
    const sent = await ctx.panel.request(`/api/servers/${id}/modpacks/uploads`, { method: "POST", token: ctx.admin.token, body: bytes });
    expect(sent.status).toBe(201);
    const stored = await sent.json();
    expect(stored).toEqual({ upload: expect.stringMatching(/^[0-9a-f-]{36}$/), size: bytes.length, sha512: new Bun.CryptoHasher("sha512").update(bytes).digest("hex") });
    const other = "0".repeat(128);
    expect((await packs("POST", "/plan", { upload: stored.upload, sha512: other })).body.error.code).toBe("ErrModHashMismatch");
    const { body: plan } = await packs("POST", "/plan", { upload: stored.upload, sha512: stored.sha512 });
    expect(plan).toMatchObject({ source: "file", projectId: null, versionId: null, title: "Kiln Test Pack", versionNumber: "1.0.0", pack: { upload: stored.upload, sha512: stored.sha512 }, blocked: false });
    expect(plan.files).toHaveLength(2);
    const change = await applied(plan.planId);
    expect(change.state).toBe("done");
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=from server-overrides\n");
    // Used: the node keeps it no longer.
    expect((await packs("POST", "/plan", { upload: stored.upload, sha512: stored.sha512 })).body.error.code).toBe("ErrNotFound");
    expect((await mods("POST", `/changes/${change.changeId}/undo`)).body.state).toBe("undone");
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=mine\n");
  }, 60_000);

  test("an update: the newer version is offered; its plan removes what it drops (not what the user changed); undone, the older one is back", async () => {
    const first = await applied((await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId, versionId: pack.versionId })).body.planId);
    expect(first.state).toBe("done");
    writeFileSync(join(folder(), "config", "pack.toml"), "pack = mine\n");
    const fabricApi = `mods/${modrinth.version(FABRIC_API).files.find((f) => f.primary)!.filename}`;
    const newer = await modrinth.addModpackVersion(pack.projectId, { slug: "kiln-test-pack", title: "Kiln Test Pack", versionNumber: "1.1.0", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: GEYSER }], overrides: { "config/new.toml": "new = true\n" }, serverOverrides: { "server.properties": "motd=1.1\n" } });

    const installed = (await packs("GET", "/installed")).body;
    expect(installed.pack).toMatchObject({ name: "Kiln Test Pack", versionId: "1.0.0", origin: { source: "modrinth", projectId: pack.projectId, versionId: pack.versionId, versionNumber: "1.0.0" } });
    expect(installed.update).toEqual({ versionId: newer.versionId, versionNumber: "1.1.0" });

    const { body: plan } = await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId, versionId: installed.update.versionId });
    // Fabric API goes; config/pack.toml, which the user changed, is theirs now and stays.
    expect(plan.removes.map((r: { path: string }) => r.path)).toEqual([fabricApi]);
    const change = await applied(plan.planId);
    expect(change).toMatchObject({ state: "done", removed: [fabricApi] });
    expect(existsSync(join(folder(), fabricApi))).toBe(false);
    expect(readFileSync(join(folder(), "config", "pack.toml"), "utf8")).toBe("pack = mine\n");
    expect(readFileSync(join(folder(), "config", "new.toml"), "utf8")).toBe("new = true\n");
    expect((await packs("GET", "/installed")).body).toMatchObject({ pack: { versionId: "1.1.0", origin: { versionId: newer.versionId } }, update: null });

    expect((await mods("POST", `/changes/${change.changeId}/undo`)).body.state).toBe("undone");
    expect(existsSync(join(folder(), fabricApi))).toBe(true);
    expect(existsSync(join(folder(), "config", "new.toml"))).toBe(false);
    expect(readFileSync(join(folder(), "server.properties"), "utf8")).toBe("motd=from server-overrides\n");
    expect((await packs("GET", "/installed")).body.pack).toMatchObject({ versionId: "1.0.0" });
  }, 60_000);

  test("a pack for Forge 1.20.1 is planned but blocked on this server; the plan cannot be applied", async () => {
    const { body } = await packs("POST", "/plan", { source: "modrinth", projectId: forgePack.projectId, versionId: forgePack.versionId });
    expect(body.warnings).toEqual([{ code: "wrongLoader", title: "Kiln Forge Pack", other: "forge" }, { code: "wrongGameVersion", title: "Kiln Forge Pack", other: "1.20.1" }]);
    expect(body.blocked).toBe(true);
    expect((await packs("POST", `/plan/${body.planId}/apply`)).body.error.code).toBe("ErrModPlanBlocked");
  }, 30_000);

  test("a mod is not a modpack, and a version of another project is not this pack's", async () => {
    expect((await packs("POST", "/plan", { source: "modrinth", projectId: "P7dR8mSH" })).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "projectId" } });
    expect((await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId, versionId: GEYSER })).body.error.code).toBe("ErrNotFound");
  });

  test("a server without a mod loader (Paper runs plugins) gets no modpacks: searched or planned, ErrModPlatformUnknown", async () => {
    const fabric = id;
    id = await paperServer(ctx, "Plugins", "1.20.4");
    expect((await packs("GET", "/search?q=")).body.error.code).toBe("ErrModPlatformUnknown");
    expect((await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId })).body.error.code).toBe("ErrModPlatformUnknown");
    id = fabric;
  });
});
