// A new server made from a CurseForge modpack (POST /api/servers {modpack: {source: "curseforge"}},
// and Add server with a pack's CurseForge page address), against the local CurseForge stand-in
// (test/helpers/curseforge-fixture): the shipped minecraft-curseforge template, its project and
// file variables the pack's (the newest release pinned when none is named), its Java the one the
// pack's Minecraft version runs on; the node's install downloads the server pack (checked against
// CurseForge's SHA-1), installs its loader, and the server starts. A pack without a server pack,
// a project that is no modpack, a template that installs no CurseForge pack and a file sent
// against the pack's are refused with nothing created.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { deleteTemplate, putTemplate } from "../server/services/templates";
import { echoTemplate, eventually } from "./helpers/node";
import { formInit, jsonInit } from "./helpers/panel-node";
import { curseforgePacksPanelForFile, packInstalled } from "./helpers/mods";

const { curse, ctx } = curseforgePacksPanelForFile();

async function create(body: Record<string, unknown>) {
  const response = await ctx().panel.request("/api/servers", { token: ctx().admin.token, ...jsonInit("POST", { node: ctx().nodeId, environment: { type: "standard" }, ...body }) });
  return { status: response.status, body: await response.json() };
}
const serverCount = async () => ((await (await ctx().panel.request("/api/servers", { token: ctx().admin.token })).json()) as { servers: unknown[] }).servers.length;
const folderOf = (id: string) => join(ctx().node.config.dataDir, "servers", id);
const definitionOf = async (id: string) => (await (await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token })).json()) as { data: Record<string, { value: unknown }> };
const consoleOf = async (id: string) => ((await ctx().node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const installed = (id: string) => packInstalled(ctx(), id);

describe("a new server from a CurseForge modpack", () => {
  beforeAll(() => putTemplate(ctx().panel.db, "plain", { ...echoTemplate(), name: "plain" }));

  test("by project id: the CurseForge template, the newest release pinned, Java for its Minecraft; installed from its server pack, and it starts", async () => {
    const { status, body } = await create({ name: "Forge pack", modpack: { source: "curseforge", projectId: "100" }, variables: { eula: true } });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.modpack).toEqual({ title: "pack 100", versionNumber: "file 1001" });
    const definition = await definitionOf(body.id);
    // 1001 is the newest released, approved file (a beta and a rejected file are newer).
    expect([definition.data.projectId?.value, definition.data.fileId?.value, definition.data.java?.value]).toEqual(["100", "1001", "17"]);
    await installed(body.id);
    const folder = folderOf(body.id);
    expect(readFileSync(join(folder, "mods/pack-mod.jar"), "utf8")).toBe("a mod");
    expect(existsSync(join(folder, "libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt"))).toBe(true);
    expect((await ctx().node.call("POST", `/daemon/server/${body.id}/start`)).status).toBeLessThan(300);
    await eventually(async () => (await consoleOf(body.id)).includes("main class net.minecraftforge.bootstrap.ForgeBootstrap"), 15_000, "Forge to start");
    await ctx().node.call("POST", `/daemon/server/${body.id}/stop?wait=true`);
  }, 90_000);

  test("Add server: a pack's CurseForge page address with a file chooses the template and its variables; the form creates the server", async () => {
    const address = "https://www.curseforge.com/minecraft/modpacks/pack-200/files/2001";
    const { status, html } = await ctx().page(`/addserver?modpack=${encodeURIComponent(address)}`, ctx().admin.token);
    expect(status).toBe(200);
    expect(html).toContain("CurseForge modpack pack 200 file 2001, for fabric and Minecraft 1.20.1");
    expect(html).toMatch(/<input type="hidden" name="template" value="minecraft-curseforge"/);
    for (const [name, value] of [["projectId", "200"], ["fileId", "2001"]]) expect(html).toMatch(new RegExp(`name="var\\.${name}"[^>]*value="${value}"|value="${value}"[^>]*name="var\\.${name}"`));
    const posted = await ctx().panel.request("/addserver?template=minecraft-curseforge", {
      token: ctx().admin.token,
      ...formInit({ template: "minecraft-curseforge", modpack: address, name: "Fabric pack by form", node: String(ctx().nodeId), environment: "standard", user: ctx().admin.email, "var.projectId": "200", "var.fileId": "2001", "var.java": "17", "var.eula": "true" }),
    });
    expect(posted.status).toBe(303);
    const id = posted.headers.get("location")!.split("/").pop()!;
    await installed(id);
    expect(readFileSync(join(folderOf(id), "mods/fabric-mod.jar"), "utf8")).toBe("a fabric mod");
    expect(readFileSync(join(folderOf(id), "server.jar"), "utf8")).toContain("fabric launcher 1.20.1 0.15.7");
  }, 90_000);

  test("Find a modpack: CurseForge's packs found by words, each chosen by its page address; a page of them at a time", async () => {
    const { status, html } = await ctx().page("/addserver?packs=pack&source=curseforge", ctx().admin.token);
    expect(status).toBe(200);
    const hits = [...html.matchAll(/href="\/addserver\?modpack=([^"]+)" data-testid="pack-choose"/g)].map((m) => decodeURIComponent(m[1]!.replaceAll("&amp;", "&")));
    // Projects 100 to 500 are packs; a mod's project is not listed.
    expect(hits).toContain("https://www.curseforge.com/minecraft/modpacks/pack-100");
    expect(hits).toContain("https://www.curseforge.com/minecraft/modpacks/pack-500");
    const chosen = await ctx().page(`/addserver?modpack=${encodeURIComponent(hits[0]!)}`, ctx().admin.token);
    expect(chosen.html).toMatch(/<input type="hidden" name="template" value="minecraft-curseforge"/);
    const none = await ctx().page("/addserver?packs=nothing-like-this&source=curseforge", ctx().admin.token);
    expect(none.html).toContain("Nothing found.");
  });

  test("a pack without a server pack, a project that is no modpack, a template without the step, a file against the pack's, an unknown pack: refused, nothing created", async () => {
    curse.setFile({ id: 6001, projectId: 600, fileDate: "2024-03-01T00:00:00Z", classId: 6, isServerPack: true, zip: { "a.txt": "a mod, not a pack" } });
    const before = await serverCount();
    const clientOnly = await create({ name: "Client only", modpack: { source: "curseforge", projectId: "500" } });
    expect(clientOnly).toMatchObject({ status: 409, body: { error: { code: "ErrModPackNoServerPack", metadata: { title: "pack 500", version: "file 5001" } } } });
    const notPack = await create({ name: "Not a pack", modpack: { source: "curseforge", projectId: "600" } });
    expect(notPack).toMatchObject({ status: 400, body: { error: { code: "ErrFieldNotBetween", metadata: { field: "modpack.projectId" } } } });
    const wrongTemplate = await create({ name: "Plain", template: "plain", modpack: { source: "curseforge", projectId: "100" } });
    expect(wrongTemplate).toMatchObject({ status: 400, body: { error: { code: "ErrModPackTemplateNoCurseForge", metadata: { template: "plain" } } } });
    const otherFile = await create({ name: "Other file", modpack: { source: "curseforge", projectId: "100", versionId: "1001" }, variables: { fileId: "1000" } });
    expect(otherFile).toMatchObject({ status: 400, body: { error: { code: "ErrFieldNotBetween", metadata: { field: "variables.fileId" } } } });
    const fileOfAnother = await create({ name: "File of another", modpack: { source: "curseforge", projectId: "100", versionId: "2001" } });
    expect(fileOfAnother.status).toBe(404);
    const unknown = await create({ name: "Unknown", modpack: { source: "curseforge", projectId: "999" } });
    expect(unknown.status).toBe(404);
    expect(await serverCount()).toBe(before);
  });

  test("no template installs CurseForge packs: said, with where to get one", async () => {
    await deleteTemplate(ctx().panel.db, "minecraft-curseforge");
    try {
      const none = await create({ name: "No template", modpack: { source: "curseforge", projectId: "100" } });
      expect(none).toMatchObject({ status: 409, body: { error: { code: "ErrModPackNoCurseForgeTemplate" } } });
      expect(none.body.error.msg).toContain("Minecraft: Java Edition (CurseForge modpack)");
    } finally {
      await putTemplate(ctx().panel.db, "minecraft-curseforge", SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"]);
    }
  });
});
