// Attacks on switching a server's loader version. Through the panel: a user of the server without
// manageMods, another holder of manageMods using someone else's plan, a version that is shell
// syntax or a path, and a platform list (Fabric's meta, PaperMC's API) that answers with shell
// syntax and markup, with the wrong shape, with too much, or not at all. On the node (as if the
// panel were bypassed): a loader switch naming the Minecraft variable or any other, a Minecraft
// switch naming the loader's, a value that is not a version. Each gets a catalogue error; the
// server's variables are unchanged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../../server/services/templates";
import { eventually } from "../helpers/node";
import { loaderTemplate, modrinthPanelForFile, modsApi, switchRefusal } from "../helpers/mods";
import { jsonInit } from "../helpers/panel-node";
import { startPlatformListsFixture } from "../helpers/platform-lists-fixture";

const { modrinth, ctx } = await modrinthPanelForFile();
const lists = startPlatformListsFixture();
afterAll(() => lists.stop());
const LOADERS = "/fabric/versions/loader/1.19.2";
let id: string;
const folder = () => join(ctx().node.config.dataDir, "servers", id);
const { call: mods } = modsApi(ctx, () => id);
const values = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data;

describe("a loader switch under attack", () => {
  beforeAll(async () => {
    const modSources = { modrinth: { url: modrinth.url }, fabric: { url: lists.fabric }, papermc: { url: lists.papermc } };
    expect((await ctx().panel.request("/api/settings", { token: ctx().admin.token, ...jsonInit("PUT", { modSources }) })).status).toBe(204);
    await putTemplate(ctx().panel.db, "fabric-loader-switch", loaderTemplate());
    id = await ctx().createServer("Attacked loader", { template: "fabric-loader-switch" });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
  }, 30_000);

  test("a user without manageMods cannot plan a loader switch", async () => {
    const user = await ctx().userWith(id, { viewServer: true, editServerData: true, installServer: true });
    const answer = await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" }, user.token);
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 403, code: "ErrNoPermission" });
  });

  test("another holder of manageMods cannot apply a loader plan made by someone else", async () => {
    const plan = (await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" })).body;
    expect(plan.what).toBe("loader");
    const other = await ctx().userWith(id, { viewServer: true, manageMods: true });
    const answer = await mods("POST", `/versions/plan/${plan.planId}/apply`, {}, other.token);
    expect(answer.body.error?.code).toBe("ErrModPlanUnknown");
    expect((await values()).loader).toBe("0.14.11");
  });

  test("a loader version that is shell syntax or a path is refused before anything is asked of the node", async () => {
    for (const loaderVersion of ['0.14.12"; touch /tmp/kiln-loader-pwned; "', "../../etc", "0.14.12\n", "$(id)", 0.14, null]) {
      const answer = await mods("POST", "/versions/plan", { loaderVersion });
      expect({ loaderVersion, status: answer.status }).toEqual({ loaderVersion, status: 400 });
      expect(["ErrFieldRequired", "ErrFieldNotBetween"]).toContain(answer.body.error?.code);
    }
    // Both switches in one plan: refused, not one of them dropped.
    const both = await mods("POST", "/versions/plan", { gameVersion: "1.20.1", loaderVersion: "0.14.12" });
    expect({ status: both.status, code: both.body.error?.code }).toEqual({ status: 400, code: "ErrUnknownField" });
    expect(existsSync("/tmp/kiln-loader-pwned")).toBe(false);
    expect((await values()).loader).toBe("0.14.11");
  });

  test("a list carrying shell syntax, markup and paths: those entries are never offered nor planned", async () => {
    const recorded = lists.recorded(LOADERS) as { loader: { version: string } }[];
    const hostile = ["0.15; rm -rf ~", "<script>alert(1)</script>", "../../x", "latest", "0".repeat(65)].map((version) => ({ loader: { version, stable: true } }));
    lists.override.set(LOADERS, () => Response.json([...hostile, ...recorded]));
    try {
      const { body } = await mods("GET", "/versions");
      expect(body.loader.versions).toEqual(["latest", "0.14.12", "0.14.11"]);
      for (const loaderVersion of ["0.15; rm -rf ~", "<script>alert(1)</script>", "../../x"]) expect((await mods("POST", "/versions/plan", { loaderVersion })).status).toBe(400);
    } finally {
      lists.override.clear();
    }
  });

  test("a list of the wrong shape or larger than any source's answer: no loader version is offered, the Minecraft switch still is", async () => {
    const answers = [() => Response.json({ builds: "all of them" }), () => Response.json([{ loader: { version: 14 } }]), () => new Response("[" + '{"loader":{"version":"0.1"}},'.repeat(400_000) + "{}]")];
    try {
      for (const answer of answers) {
        lists.override.set(LOADERS, answer);
        const { status, body } = await mods("GET", "/versions");
        expect(status).toBe(200);
        expect(body.versions).toContain("1.20.1");
        expect(body.loader).toEqual({ variable: "loader", value: "0.14.11", versions: [], unavailable: true });
      }
    } finally {
      lists.override.clear();
    }
  });

  test("NeoForge's Maven listing carrying shell syntax, markup, paths or far too much: only its builds that read as versions are offered, else none", async () => {
    const listing = "/neoforge/releases/net/neoforged/neoforge/maven-metadata.xml";
    const put = (modSources: Record<string, unknown>) => ctx().panel.request("/api/settings", { token: ctx().admin.token, ...jsonInit("PUT", { modSources: { modrinth: { url: modrinth.url }, fabric: { url: lists.fabric }, papermc: { url: lists.papermc }, ...modSources } }) });
    await putTemplate(ctx().panel.db, "neoforge-attacked", { ...loaderTemplate(), name: "neoforge-attacked", addons: { platform: "neoforge", gameVersion: "${version}", loaderVersion: "${loader}" } });
    const neoId = await ctx().createServer("Attacked NeoForge", { template: "neoforge-attacked" });
    const neoFolder = join(ctx().node.config.dataDir, "servers", neoId);
    mkdirSync(join(neoFolder, "libraries/net/neoforged/neoforge/21.1.200"), { recursive: true });
    writeFileSync(join(neoFolder, "libraries/net/neoforged/neoforge/21.1.200/unix_args.txt"), "");
    const versionsOf = async () => (await ctx().panel.request(`/api/servers/${neoId}/mods/versions`, { token: ctx().admin.token })).json();
    expect((await put({ neoforge: { url: lists.neoforge } })).status).toBe(204);
    const hostile = ["21.1.5; id", "21.1.6/../../x", "21.1.7 $(id)", "21.1.8&lt;script&gt;", "21.1.9"].map((v) => `<version>${v}</version>`).join("");
    try {
      lists.override.set(listing, () => new Response(`<metadata><versioning><versions>${hostile}</versions></versioning></metadata>`));
      expect((await versionsOf()).loader.versions).toEqual(["latest", "21.1.9"]);
      lists.override.set(listing, () => new Response(`<metadata>${"<version>21.1.1</version>".repeat(400_000)}</metadata>`));
      expect((await versionsOf()).loader).toMatchObject({ versions: [], unavailable: true });
    } finally {
      lists.override.clear();
    }
  });

  test("Forge's Maven listing carrying shell syntax, markup, paths or another Minecraft version's builds: only this version's builds that read as versions are offered", async () => {
    const listing = "/forge/net/minecraftforge/forge/maven-metadata.xml";
    const put = (modSources: Record<string, unknown>) => ctx().panel.request("/api/settings", { token: ctx().admin.token, ...jsonInit("PUT", { modSources: { modrinth: { url: modrinth.url }, ...modSources } }) });
    await putTemplate(ctx().panel.db, "forge-attacked", { ...loaderTemplate(), name: "forge-attacked", addons: { platform: "forge", gameVersion: "${version}", loaderVersion: "${loader}" }, data: { ...loaderTemplate().data, version: { ...loaderTemplate().data.version, value: "1.20.1" } } });
    const forgeId = await ctx().createServer("Attacked Forge", { template: "forge-attacked" });
    mkdirSync(join(ctx().node.config.dataDir, "servers", forgeId, "libraries/net/minecraftforge/forge/1.20.1-47.1.0"), { recursive: true });
    writeFileSync(join(ctx().node.config.dataDir, "servers", forgeId, "libraries/net/minecraftforge/forge/1.20.1-47.1.0/unix_args.txt"), "");
    expect((await put({ forge: { url: lists.forge } })).status).toBe(204);
    const hostile = ["1.20.1-47.1.5; id", "1.20.1-../../x", "1.20.1-47.1.7 $(id)", "1.20.1-&lt;b&gt;", "1.20.10-48.0.0", "1.20.1-47.1.9"].map((v) => `<version>${v}</version>`).join("");
    try {
      lists.override.set(listing, () => new Response(`<metadata><versioning><versions>${hostile}</versions></versioning></metadata>`));
      const answer = await (await ctx().panel.request(`/api/servers/${forgeId}/mods/versions`, { token: ctx().admin.token })).json();
      expect(answer.loader.versions).toEqual(["recommended", "latest", "47.1.9"]);
      const refused = await ctx().panel.request(`/api/servers/${forgeId}/mods/versions/plan`, { token: ctx().admin.token, ...jsonInit("POST", { loaderVersion: "47.1.5; id" }) });
      expect(refused.status).toBe(400);
    } finally {
      lists.override.clear();
    }
  });

  test("a list that never answers is given up: the page's versions still come, the loader's are said unavailable", async () => {
    lists.hang = true;
    try {
      const started = Date.now();
      const { status, body } = await mods("GET", "/versions");
      expect(status).toBe(200);
      expect(body.loader.unavailable).toBe(true);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      lists.hang = false;
    }
  }, 30_000);

  test("on the node: a loader switch naming another variable, a Minecraft switch naming the loader's, a value that is not a version: refused, nothing changed", async () => {
    const refused = switchRefusal(ctx(), id);
    expect(await refused({ what: "loader", variable: "version", value: "1.20.1", folder: null })).toBe("ErrModLoaderSwitchUnavailable");
    expect(await refused({ what: "loader", variable: "greeting", value: "0.14.12", folder: null })).toBe("ErrModLoaderSwitchUnavailable");
    expect(await refused({ what: "game", variable: "loader", value: "0.14.12", folder: null })).toBe("ErrModSwitchUnavailable");
    expect(await refused({ variable: "loader", value: "0.14.12", folder: null })).toBe("ErrModSwitchUnavailable");
    expect(await refused({ what: "loader", variable: "loader", value: "0.14; id", folder: null })).toBe("ErrFieldNotBetween");
    expect(await refused({ what: "game", variable: "version", value: "latest", folder: null })).toBe("ErrFieldNotBetween");
    expect(await refused({ what: "everything", variable: "loader", value: "0.14.12", folder: null })).toBeString();
    expect(await values()).toMatchObject({ version: "1.19.2", loader: "0.14.11", greeting: "world" });
  });
});
