// A new server made from a Modrinth modpack (POST /api/servers {modpack}, and Add server's "start
// from a modpack"), against the local Modrinth: the template is the one that runs the pack's
// loader, its Minecraft version variable is the pack's, and the pack is placed by the node once the
// install has finished, checked then against what the install made. A pack no template runs, a
// template that runs another loader and a version sent against the pack's are refused with nothing
// created; an install that fails or makes another Minecraft version leaves the pack unplaced.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../server/services/templates";
import { echoTemplate, eventually } from "./helpers/node";
import { formInit, jsonInit } from "./helpers/panel-node";
import { modrinthPanelForFile, modsApi } from "./helpers/mods";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx } = await modrinthPanelForFile();
const GEYSER = "CeSpw2Km";

/** A template whose servers run Fabric for the version in `${version}`; its install runs `install` (a quick stand-in for Fabric's installer). */
function fabricTemplate(install: unknown[] = [{ type: "writefile", target: "installed.txt", text: "Minecraft ${version}" }]) {
  const echo = echoTemplate();
  return { ...echo, name: "fabric-pack", display: "Fabric (test)", addons: { platform: "fabric", gameVersion: "${version}" }, install, data: { ...echo.data, version: { display: "Minecraft version", desc: "", type: "string", value: "1.19.2", required: true, userEdit: true } } };
}

async function create(body: Record<string, unknown>, token = ctx().admin.token) {
  const response = await ctx().panel.request("/api/servers", { token, ...jsonInit("POST", { node: ctx().nodeId, environment: { type: "standard" }, ...body }) });
  return { status: response.status, body: await response.json() };
}

const serverCount = async () => ((await (await ctx().panel.request("/api/servers", { token: ctx().admin.token })).json()) as { servers: unknown[] }).servers.length;
const folderOf = (id: string) => join(ctx().node.config.dataDir, "servers", id);
const geyserFile = () => modrinth.version(GEYSER).files.find((f) => f.primary)!.filename;

let pack: { projectId: string; versionId: string };
let forgePack: { projectId: string; versionId: string };

describe.skipIf(!resticHere)("a new server from a modpack", () => {
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "fabric-pack", fabricTemplate());
    await putTemplate(ctx().panel.db, "paper-plugins", { ...echoTemplate(), name: "paper-plugins", addons: { platform: "paper" } });
    pack = await modrinth.addModpack({ slug: "kiln-new-server-pack", title: "Kiln New Server Pack", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: GEYSER }], overrides: { "config/pack.toml": "pack = true\n" } });
    forgePack = await modrinth.addModpack({ slug: "kiln-forge-only", title: "Kiln Forge Only", gameVersion: "1.20.1", loader: ["forge", "47.2.0"], mods: [] });
  });

  test("without a template: the one that runs the pack's loader, its Minecraft version the pack's, the pack placed after the install", async () => {
    const { status, body } = await create({ name: "From a pack", modpack: { projectId: "kiln-new-server-pack" } });
    expect(status).toBe(201);
    expect(body.modpack).toMatchObject({ title: "Kiln New Server Pack", versionNumber: "1.0.0" });
    const { followed } = modsApi(ctx, () => body.id);
    const change = await followed(body.modpack.changeId);
    expect(change).toMatchObject({ state: "done", total: 1, downloaded: 1 });
    const folder = folderOf(body.id);
    // The install ran first, with the pack's Minecraft version; then the pack.
    expect(readFileSync(join(folder, "installed.txt"), "utf8")).toBe("Minecraft 1.20.4");
    expect(new Uint8Array(readFileSync(join(folder, "mods", geyserFile())))).toEqual(modrinth.jar(GEYSER));
    expect(readFileSync(join(folder, "config", "pack.toml"), "utf8")).toBe("pack = true\n");
    const definition = await (await ctx().panel.request(`/proxy/daemon/server/${body.id}`, { token: ctx().admin.token })).json();
    expect(definition.data.version.value).toBe("1.20.4");
    // The server has the pack, from Modrinth, so its updates are found.
    const installed = await modsApi(ctx, () => body.id, "modpacks").call("GET", "/installed");
    expect(installed.body.pack).toMatchObject({ name: "Kiln New Server Pack", origin: { source: "modrinth", projectId: pack.projectId, versionId: pack.versionId } });
  }, 60_000);

  test("a template named that runs another loader, a pack no template runs, a version against the pack's: refused, nothing created", async () => {
    const before = await serverCount();
    const wrong = await create({ name: "Wrong template", template: "paper-plugins", modpack: { projectId: pack.projectId } });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: "ErrModPackWrongTemplate", metadata: { template: "paper-plugins", platform: "paper", loader: "fabric" } } } });
    const none = await create({ name: "No template", modpack: { projectId: forgePack.projectId } });
    expect(none).toMatchObject({ status: 409, body: { error: { code: "ErrModPackNoTemplate", metadata: { loader: "forge" } } } });
    const version = await create({ name: "Other version", modpack: { projectId: pack.projectId }, variables: { version: "1.19.2" } });
    expect(version).toMatchObject({ status: 400, body: { error: { code: "ErrFieldNotBetween", metadata: { field: "variables.version" } } } });
    const notPack = await create({ name: "Not a pack", modpack: { projectId: "fabric-api" } });
    expect(notPack).toMatchObject({ status: 400, body: { error: { code: "ErrFieldNotBetween", metadata: { field: "modpack.projectId" } } } });
    const missing = await create({ name: "No such pack", modpack: { projectId: "no-such-pack" } });
    expect(missing.status).toBe(404);
    expect(await serverCount()).toBe(before);
  });

  test("an install that fails, or makes another Minecraft version than the pack's: the pack is not placed, and the change says why", async () => {
    await putTemplate(ctx().panel.db, "fabric-pack", fabricTemplate([{ type: "command", commands: ["sh -c 'exit 3'"] }]));
    const failed = await create({ name: "Install fails", template: "fabric-pack", modpack: { projectId: pack.projectId } });
    expect(failed.status).toBe(201);
    const change = await modsApi(ctx, () => failed.body.id).followed(failed.body.modpack.changeId);
    expect(change).toMatchObject({ state: "failed", error: { code: "ErrModPackInstallFailed" }, added: [] });
    expect(existsSync(join(folderOf(failed.body.id), "mods"))).toBe(false);

    // The install makes a Fabric server for 1.19.2 (its loader libraries), whatever the variable says: the files win.
    await putTemplate(ctx().panel.db, "fabric-pack", fabricTemplate([
      { type: "mkdir", target: "libraries/net/fabricmc/fabric-loader/0.15.11" },
      { type: "writefile", target: "libraries/net/fabricmc/fabric-loader/0.15.11/fabric-loader-0.15.11.jar", text: "" },
      { type: "mkdir", target: "libraries/net/fabricmc/intermediary/1.19.2" },
      { type: "writefile", target: "libraries/net/fabricmc/intermediary/1.19.2/intermediary-1.19.2.jar", text: "" },
    ]));
    const other = await create({ name: "Other version made", modpack: { projectId: pack.projectId } });
    expect(other.status).toBe(201);
    const refused = await modsApi(ctx, () => other.body.id).followed(other.body.modpack.changeId);
    expect(refused).toMatchObject({ state: "failed", error: { code: "ErrModPackDoesNotRun", metadata: { loader: "fabric", gameVersion: "1.20.4", platform: "fabric", serverVersion: "1.19.2" } }, added: [] });
    expect(existsSync(join(folderOf(other.body.id), "mods", geyserFile()))).toBe(false);
    await putTemplate(ctx().panel.db, "fabric-pack", fabricTemplate());
  }, 60_000);

  test("Add server: a modpack's address chooses the template and the version; the form creates the server with the pack", async () => {
    const { status, html } = await ctx().page(`/addserver?modpack=${encodeURIComponent("https://modrinth.com/modpack/kiln-new-server-pack")}`, ctx().admin.token);
    expect(status).toBe(200);
    expect(html).toContain("Kiln New Server Pack");
    expect(html).toMatch(/<input type="hidden" name="template" value="fabric-pack"/);
    expect(html).toMatch(/name="var\.version"[^>]*value="1\.20\.4"|value="1\.20\.4"[^>]*name="var\.version"/);
    const posted = await ctx().panel.request("/addserver?template=fabric-pack", {
      token: ctx().admin.token,
      ...formInit({ template: "fabric-pack", modpack: "https://modrinth.com/modpack/kiln-new-server-pack", name: "Pack by form", node: String(ctx().nodeId), environment: "standard", user: ctx().admin.email, "var.version": "1.20.4", "var.greeting": "hi" }),
    });
    expect(posted.status).toBe(303);
    const id = posted.headers.get("location")!.split("/").pop()!;
    let installed: any;
    await eventually(async () => (installed = (await modsApi(ctx, () => id, "modpacks").call("GET", "/installed")).body).pack !== null, 30_000, "the pack to be placed");
    expect(installed.pack).toMatchObject({ name: "Kiln New Server Pack", origin: { projectId: pack.projectId } });
    expect(existsSync(join(folderOf(id), "mods", geyserFile()))).toBe(true);
  }, 60_000);

  test("Find a modpack: Modrinth's packs found by words (no mods among them), each chosen by its page address", async () => {
    const { status, html } = await ctx().page("/addserver?packs=kiln&source=modrinth", ctx().admin.token);
    expect(status).toBe(200);
    const hits = [...html.matchAll(/href="\/addserver\?modpack=([^"]+)" data-testid="pack-choose"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(hits).toContain("https://modrinth.com/modpack/kiln-new-server-pack");
    expect(hits.every((address) => address.startsWith("https://modrinth.com/modpack/"))).toBe(true);
    expect(html).not.toContain("Fabric API");
    const chosen = await ctx().page(`/addserver?modpack=${encodeURIComponent("https://modrinth.com/modpack/kiln-new-server-pack")}`, ctx().admin.token);
    expect(chosen.html).toMatch(/<input type="hidden" name="template" value="fabric-pack"/);
  });

  test("Find a modpack on a source that does not answer: said in the card; the rest of the page works", async () => {
    const { status, html } = await ctx().page("/addserver?packs=kiln&source=curseforge", ctx().admin.token);
    expect(status).toBe(200);
    expect(html).toContain("no API key is set");
    expect(html).toContain('data-testid="choose-template"');
  });

  test("a pack that is not found names it on the page; nothing is chosen", async () => {
    const { status, html } = await ctx().page("/addserver?modpack=no-such-pack", ctx().admin.token);
    expect(status).toBe(404);
    expect(html).not.toContain('name="template" value="fabric-pack"');
  });
});
