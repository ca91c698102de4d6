// Plugins and mods from CurseForge through the panel's API, against a local CurseForge answering
// with recorded real documents (test/helpers/curseforge-mods-fixture): on a Paper 1.20 server, a
// search for WorldGuard asks for Bukkit plugins (class 5) for 1.20 with the administrator's key;
// its page shows the description as text; installing it plans WorldEdit with it (relationType 3,
// required), and applying downloads both from CurseForge's file host checked by SHA-1; the
// installed list then knows both by their fingerprints, with their titles. CurseForge turned off,
// or without a key, says so; Modrinth stays the default source.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CURSEFORGE_KEY } from "./helpers/curseforge-mods-fixture";
import { curseforgePanelForFile, modsApi, paperServer } from "./helpers/mods";
import { jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { curseforge, ctx: panel } = await curseforgePanelForFile(false);
let ctx: PanelWithNode;
let id: string;
const { call, apply } = modsApi(() => ctx, () => id);
const settings = (body: unknown) => ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", body) });
const WORLDGUARD = "31054";
const WORLDEDIT = "31043";

describe.skipIf(!resticHere)("plugins from CurseForge", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await paperServer(ctx, "Curse", "1.20");
  });

  test("without an API key, CurseForge says it cannot be asked; Modrinth stays the default", async () => {
    const answer = await call("GET", "/search?q=worldguard&source=curseforge");
    expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "CurseForge" } });
    expect((await call("GET", "/search?q=x&source=elsewhere")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "source" } });
    expect((await ctx.panel.request("/api/settings/panel.mods.curseforgeKey", { token: ctx.admin.token, ...jsonInit("PUT", { value: CURSEFORGE_KEY }) })).status).toBe(204);
    // The key is a secret: the settings say only that it is set.
    const read = await (await ctx.panel.request("/api/settings/panel.mods.curseforgeKey", { token: ctx.admin.token })).json();
    expect(read).toEqual({ value: null, isSet: true });
  });

  test("a search asks for Bukkit plugins for the server's Minecraft version, with the key", async () => {
    const { status, body } = await call("GET", "/search?q=worldguard&source=curseforge&sort=downloads");
    expect(status).toBe(200);
    expect(body.hits).toEqual([expect.objectContaining({ source: "curseforge", projectId: WORLDGUARD, slug: "worldguard", title: "WorldGuard" })]);
    const asked = new URL(`http://x${curseforge.requests.findLast((r) => r.path.startsWith("/v1/mods/search"))!.path}`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ gameId: "432", classId: "5", searchFilter: "worldguard", gameVersion: "1.20", sortField: "6" });
    expect(curseforge.requests.filter((r) => r.host === "api").every((r) => r.key === CURSEFORGE_KEY)).toBe(true);
    // CurseForge's categories are not Modrinth's: one of Modrinth's with it is refused, not ignored.
    expect((await call("GET", "/search?q=x&source=curseforge&category=optimization")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "category" } });
  });

  test("the answer lists CurseForge's own categories of Bukkit plugins, by name; a search narrowed to one asks CurseForge for it", async () => {
    const { body } = await call("GET", "/search?q=&source=curseforge");
    // The plugin class's categories the recorded projects carry (JEI's are mods' categories, class 6).
    expect(body.categories).toEqual([
      { id: "115", name: "Admin Tools" },
      { id: "116", name: "Anti-Griefing Tools" },
      { id: "125", name: "Fixes" },
      { id: "127", name: "General" },
      { id: "124", name: "World Editing and Management" },
    ]);
    expect(curseforge.requests.some((r) => r.path === "/v1/categories?gameId=432&classId=5")).toBe(true);
    const narrowed = await call("GET", "/search?q=&source=curseforge&category=116");
    expect(narrowed.body.hits.map((h: { projectId: string }) => h.projectId)).toEqual([WORLDGUARD]);
    expect(new URL(`http://x${curseforge.requests.findLast((r) => r.path.startsWith("/v1/mods/search"))!.path}`).searchParams.get("categoryId")).toBe("116");
    // A category of mods (JEI's "API and Library") is not one of the plugins': refused before the search is asked.
    const searches = curseforge.requests.filter((r) => r.path.startsWith("/v1/mods/search")).length;
    expect((await call("GET", "/search?q=&source=curseforge&category=421")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "category" } });
    expect(curseforge.requests.filter((r) => r.path.startsWith("/v1/mods/search")).length).toBe(searches);
  });

  test("a project's page: its description as text, its files for the server", async () => {
    curseforge.mod(31054).description = "<h2>WorldGuard</h2><p>Protect <b>regions</b> &amp; more.</p><script>alert(1)</script>";
    const { status, body } = await call("GET", `/projects/${WORLDGUARD}?source=curseforge`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "curseforge", projectId: WORLDGUARD, title: "WorldGuard" });
    expect(body.body).toBe("WorldGuard\nProtect regions & more.");
    expect(body.versions.map((v: { versionId: string }) => v.versionId)).toContain("4675318");
  });

  let plan: any;
  test("installing WorldGuard plans WorldEdit with it; applied, both come from CurseForge's host as it hashed them", async () => {
    const answer = await call("POST", "/plan", { source: "curseforge", projectId: WORLDGUARD });
    expect(answer.status).toBe(200);
    plan = answer.body;
    expect(plan.add.map((f: { projectId: string; source: string }) => [f.source, f.projectId])).toEqual([["curseforge", WORLDGUARD], ["curseforge", WORLDEDIT]]);
    expect(plan.add[0]).toMatchObject({ versionId: "4675318", fileName: "worldguard-bukkit-7.0.9-dist.jar", sha1: curseforge.file(4675318).hashes[0].value });
    expect(plan.add[1]).toMatchObject({ requiredBy: "WorldGuard", fileName: "worldedit-bukkit-7.2.15.jar" });
    expect(plan).toMatchObject({ folder: "plugins", warnings: [], blocked: false });
    const change = await apply(plan.planId);
    expect(change).toMatchObject({ state: "done", added: ["worldguard-bukkit-7.0.9-dist.jar", "worldedit-bukkit-7.2.15.jar"] });
    const folder = ctx.node.folder(id, "plugins");
    expect(new Uint8Array(readFileSync(join(folder, "worldguard-bukkit-7.0.9-dist.jar")))).toEqual(curseforge.jar(4675318));
    // The key went to the API only, never to the file host.
    expect(curseforge.requests.filter((r) => r.host === "cdn").map((r) => r.key)).toEqual([null, null]);
  }, 60_000);

  test("the installed list knows both by their fingerprints, with their titles", async () => {
    const { body } = await call("GET", "/installed");
    const bySource = body.map((f: { fileName: string; source?: string; projectId?: string; title?: string }) => [f.fileName, f.source, f.projectId, f.title]).sort();
    expect(bySource).toEqual([
      ["worldedit-bukkit-7.2.15.jar", "curseforge", WORLDEDIT, "WorldEdit for Bukkit"],
      ["worldguard-bukkit-7.0.9-dist.jar", "curseforge", WORLDGUARD, "WorldGuard"],
    ]);
    expect(curseforge.requests.some((r) => r.path === "/v1/fingerprints/432")).toBe(true);
  });

  test("a file its author keeps on CurseForge only cannot be planned; CurseForge turned off says so", async () => {
    curseforge.file(4675318).downloadUrl = null;
    curseforge.file(4591050).downloadUrl = null;
    const refused = await call("POST", "/plan", { source: "curseforge", projectId: WORLDGUARD, versionId: "4591050" });
    expect(refused.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "CurseForge" } });
    expect(refused.body.error.metadata.reason).toContain("only on the source's own site");
    expect((await settings({ modSources: { curseforge: { enabled: false, url: curseforge.url } } })).status).toBe(204);
    expect((await call("GET", "/search?q=worldguard&source=curseforge")).body.error).toMatchObject({ code: "ErrModSourceUnavailable" });
    expect((await settings({ modSources: { curseforge: { enabled: true, url: curseforge.url } } })).status).toBe(204);
  });
});
