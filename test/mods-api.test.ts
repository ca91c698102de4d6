// Mods through the panel's API against a local Modrinth answering with recorded real documents
// (test/helpers/modrinth-fixture): a Fabric 1.20.4 server folder is recognised; a search is
// filtered by its loader and game version; installing Geyser plans Fabric API with it (a required
// dependency), applying downloads both checked by hash after a backup; the installed list knows
// them by hash, with an update offered for an older Lithium; installing Lithium again updates it
// in place of the old file; removing Geyser with its unneeded dependencies takes Fabric API too;
// an incompatible pair blocks a plan; the last change is undone. A Paper server's plugins: the
// search asks for plugin loaders, GriefPrevention lands in plugins/. A template may state the
// platform where the files do not tell yet.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PanelWithNode } from "./helpers/panel-node";
import { fabricServer, modrinthPanelForFile, modsApi, paperServer } from "./helpers/mods";
import { MODRINTH } from "./helpers/modrinth-fixture";
import { echoTemplate } from "./helpers/node";
import { jsonInit } from "./helpers/panel-node";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;

const FABRIC_API = MODRINTH.fabricApi;
const GEYSER = MODRINTH.geyser;
const LITHIUM = MODRINTH.lithium;

let id: string;
const mods = () => ctx.node.folder(id, "mods");
const { call: api, apply } = modsApi(() => ctx, () => id);

describe.skipIf(!resticHere)("mods of a Fabric server, from Modrinth", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await fabricServer(ctx, "Modded", "1.20.4");
  });

  test("the platform is read from the folder's loader libraries", async () => {
    expect((await api("GET", "/platform")).body).toEqual({ platform: "fabric", gameVersion: "1.20.4", loaderVersion: "0.15.11", folder: "mods", detectedFrom: "libraries/net/fabricmc/fabric-loader/0.15.11" });
  });

  test("a search is filtered by the server's loader and game version", async () => {
    const { status, body } = await api("GET", "/search?q=&sort=downloads");
    expect(status).toBe(200);
    expect(body.hits.length).toBeGreaterThan(0);
    const facets = JSON.parse(new URL(`http://x${modrinth.requests.findLast((r) => r.path.startsWith("/v2/search"))!.path}`).searchParams.get("facets")!);
    expect(facets).toEqual([["project_type:mod"], ["categories:fabric"], ["versions:1.20.4"]]);
    expect(modrinth.requests.at(-1)?.userAgent).toStartWith("kiln/");
    // Narrowed to a category: one facet more; a category that is not one is refused.
    expect((await api("GET", "/search?q=&category=optimization")).status).toBe(200);
    const narrowed = JSON.parse(new URL(`http://x${modrinth.requests.findLast((r) => r.path.startsWith("/v2/search"))!.path}`).searchParams.get("facets")!);
    expect(narrowed).toEqual([["project_type:mod"], ["categories:fabric"], ["versions:1.20.4"], ["categories:optimization"]]);
    expect((await api("GET", "/search?q=&category=loader%22%5D")).body.error.code).toBe("ErrFieldNotBetween");
  });

  let geyserChange: any;
  test("installing Geyser plans Fabric API with it; applied after a backup, both files are there as the source hashed them", async () => {
    const plan = (await api("POST", "/plan", { source: "modrinth", projectId: GEYSER })).body;
    expect(plan.add.map((f: { projectId: string }) => f.projectId)).toEqual([GEYSER, FABRIC_API]);
    expect(plan.add[0].versionId).toBe("CeSpw2Km");
    expect(plan.add[1]).toMatchObject({ versionId: "BPX6fK06", requiredBy: plan.add[0].title });
    expect(plan).toMatchObject({ folder: "mods", update: [], remove: [], warnings: [], blocked: false });
    geyserChange = await apply(plan.planId);
    expect(geyserChange).toMatchObject({ state: "done", added: [plan.add[0].fileName, plan.add[1].fileName] });
    expect(geyserChange.backup).toMatch(/^[0-9a-f]{8}$/);
    expect(new Uint8Array(readFileSync(join(mods(), plan.add[1].fileName)))).toEqual(modrinth.jar("BPX6fK06"));
  }, 60_000);

  test("an older Lithium chosen by version: a warning for its game version; once in, the list offers its update", async () => {
    const plan = (await api("POST", "/plan", { source: "modrinth", projectId: LITHIUM, versionId: "ZSNsJrPI" })).body;
    expect(plan.warnings).toEqual([{ code: "wrongGameVersion", title: "Lithium", message: "The chosen version of Lithium is not made for this server's Minecraft version." }]);
    expect((await apply(plan.planId)).state).toBe("done");
    writeFileSync(join(mods(), "by-hand.jar"), "a jar Modrinth does not know");
    const installed = (await api("GET", "/installed")).body;
    const lithium = installed.find((f: { projectId?: string }) => f.projectId === LITHIUM);
    expect(lithium).toMatchObject({ source: "modrinth", versionId: "ZSNsJrPI", title: "Lithium", enabled: true, updateAvailable: { versionId: "nMhjKWVE" } });
    expect(installed.find((f: { fileName: string }) => f.fileName === "by-hand.jar")).toEqual({ fileName: "by-hand.jar", enabled: true, size: 28 });
    expect(installed.filter((f: { projectId?: string }) => f.projectId).map((f: { projectId: string }) => f.projectId).sort()).toEqual([FABRIC_API, LITHIUM, GEYSER].sort());
    // What the source said of each hash is kept: the list again asks it only for updates.
    const asked = modrinth.requests.filter((r) => r.path === "/v2/version_files").length;
    await api("GET", "/installed");
    expect(modrinth.requests.filter((r) => r.path === "/v2/version_files").length).toBe(asked);
  }, 60_000);

  test("installing Lithium again updates it: the new file in place of the old", async () => {
    const old = (await api("GET", "/installed")).body.find((f: { projectId?: string }) => f.projectId === LITHIUM).fileName;
    const plan = (await api("POST", "/plan", { source: "modrinth", projectId: LITHIUM })).body;
    expect(plan.add).toEqual([]);
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]).toMatchObject({ versionId: "nMhjKWVE", replaces: old });
    expect((await apply(plan.planId)).state).toBe("done");
    const names = readdirSync(mods());
    expect(names).toContain(plan.update[0].fileName);
    expect(names).not.toContain(old);
  }, 60_000);

  test("removing Geyser with the dependencies nothing else needs takes Fabric API too; without, only Geyser", async () => {
    const geyserFile = (await api("GET", "/installed")).body.find((f: { projectId?: string }) => f.projectId === GEYSER).fileName;
    const alone = (await api("POST", "/remove", { fileNames: [geyserFile], withUnneededDependencies: false })).body;
    expect(alone.remove.map((r: { fileName: string }) => r.fileName)).toEqual([geyserFile]);
    const plan = (await api("POST", "/remove", { fileNames: [geyserFile], withUnneededDependencies: true })).body;
    expect(plan.remove.map((r: { title?: string }) => r.title).sort()).toEqual(["Fabric API", modrinth.project(GEYSER).title].sort());
    const change = await apply(plan.planId);
    expect(change.state).toBe("done");
    expect(readdirSync(mods()).some((n) => n === geyserFile)).toBe(false);
    expect((await api("GET", "/changes")).body).toEqual({ undoable: change.changeId });

    const undone = await api("POST", `/changes/${change.changeId}/undo`);
    expect(undone.body.state).toBe("undone");
    expect(readdirSync(mods())).toContain(geyserFile);
    expect((await api("GET", "/changes")).body).toEqual({ undoable: null });
  }, 60_000);

  test("a plan bringing in a project the server's mods declare incompatible is blocked and cannot be applied", async () => {
    // No recorded version declares an incompatibility: one is declared on Lithium's for this test.
    modrinth.setDependencies("nMhjKWVE", [{ version_id: null, project_id: "AANobbMI", file_name: null, dependency_type: "incompatible" }]);
    const plan = (await api("POST", "/plan", { source: "modrinth", projectId: "AANobbMI", versionId: "vgceLbdH" })).body;
    expect(plan.blocked).toBe(true);
    expect(plan.warnings).toContainEqual({ code: "incompatible", title: "Lithium", other: "Sodium", message: "Lithium does not work with Sodium." });
    const refused = await api("POST", `/plan/${plan.planId}/apply`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("ErrModPlanBlocked");
    modrinth.setDependencies("nMhjKWVE", []);
  }, 60_000);
});

describe.skipIf(!resticHere)("plugins of a Paper server, from Modrinth", () => {
  let paper: string;
  const call = (method: string, path: string, body?: unknown) => modsApi(() => ctx, () => paper).call(method, path, body);
  beforeAll(async () => {
    ctx = panel();
    paper = await paperServer(ctx, "Plugged", "1.21.1");
  });

  test("the search asks for plugins of Paper's loaders; GriefPrevention installs into plugins/", async () => {
    expect((await call("GET", "/platform")).body).toMatchObject({ platform: "paper", gameVersion: "1.21.1", folder: "plugins" });
    const { body } = await call("GET", "/search?q=grief");
    expect(body.hits.map((h: { projectId: string }) => h.projectId)).toContain("O4o4mKaq");
    const facets = JSON.parse(new URL(`http://x${modrinth.requests.findLast((r) => r.path.startsWith("/v2/search"))!.path}`).searchParams.get("facets")!);
    expect(facets).toEqual([["project_type:mod"], ["categories:paper", "categories:spigot", "categories:bukkit"], ["versions:1.21.1"]]);
    const plan = (await call("POST", "/plan", { projectId: "O4o4mKaq" })).body;
    expect(plan).toMatchObject({ folder: "plugins", blocked: false });
    expect(plan.add.map((f: { versionId: string }) => f.versionId)).toEqual(["iaJtn30B"]);
    const change = await modsApi(() => ctx, () => paper).apply(plan.planId);
    expect(change.state).toBe("done");
    expect(readdirSync(ctx.node.folder(paper, "plugins"))).toEqual([plan.add[0].fileName]);
  }, 60_000);
});

describe("a template that states what its servers run", () => {
  const template = (addons: unknown, version = "1.21.1") => ({
    ...echoTemplate(),
    name: "stated",
    data: { ...echoTemplate().data, version: { display: "Version", type: "string", value: version, required: true, userEdit: true } },
    addons,
  });
  const put = (body: unknown) => ctx.panel.request("/api/templates/stated", { token: ctx.admin.token, ...jsonInit("PUT", body) });
  const platformOf = async (id: string) => (await (await ctx.panel.request(`/api/servers/${id}/mods/platform`, { token: ctx.admin.token })).json());
  beforeAll(() => {
    ctx = panel();
  });

  test("an empty folder: the template's platform, its game version from a variable; the files win once they tell", async () => {
    expect((await put(template({ platform: "paper", gameVersion: "${version}" }))).status).toBeLessThan(300);
    const created = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "Stated", node: ctx.nodeId, template: "stated", environment: { type: "standard" } }) });
    const { id } = await created.json();
    expect(await platformOf(id)).toEqual({ platform: "paper", gameVersion: "1.21.1", folder: "plugins", detectedFrom: "template" });
    writeFileSync(ctx.node.folder(id, "version_history.json"), JSON.stringify({ currentVersion: "git-Purpur-2062 (MC: 1.20.1)" }));
    expect(await platformOf(id)).toMatchObject({ platform: "purpur", gameVersion: "1.20.1", detectedFrom: "version_history.json" });
  });

  test("a platform that is not one, or a game version that is not one once filled in, is not taken", async () => {
    const refused = await put(template({ platform: "bukkit" }));
    expect(refused.status).toBe(400);
    expect((await put(template({ platform: "fabric", gameVersion: "${version}" }, "<script>1.20</script>"))).status).toBeLessThan(300);
    const created = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "Odd", node: ctx.nodeId, template: "stated", environment: { type: "standard" } }) });
    const { id } = await created.json();
    expect(await platformOf(id)).toEqual({ platform: "fabric", gameVersion: null, folder: "mods", detectedFrom: "template" });
  });
});
