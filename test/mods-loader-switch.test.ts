// Switching a server's loader version (a Fabric loader, a Paper build) for the same Minecraft
// through the panel's API, against the local stand-ins of Fabric's meta and PaperMC's download API
// (recorded answers: Fabric's loaders 0.14.12 and 0.14.11 for Minecraft 1.19.2, PaperMC's versions
// with their builds, 55 of 1.21.8). The Fabric server's template states `${loader}` as its loader's version and
// its install lays out that loader's library (a quick stand-in for Fabric's installer). Offered:
// `latest` and the listed versions, the value now marked; the plan keeps the add-ons; applied, a
// backup is taken and the install runs again with the new loader, the user's files kept; undone,
// the backup and the variable come back. A template's own options are offered as they are; a
// platform list that does not answer hides only the loader's versions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { putTemplate } from "../server/services/templates";
import { eventually } from "./helpers/node";
import { loaderTemplate, modrinthPanelForFile, modsApi, switchTemplate } from "./helpers/mods";
import { jsonInit } from "./helpers/panel-node";
import { startPlatformListsFixture } from "./helpers/platform-lists-fixture";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx } = await modrinthPanelForFile();
const lists = startPlatformListsFixture();
afterAll(() => lists.stop());
/** The setting is written whole: Modrinth's stand-in stays in it. */
const setSources = async (modSources: Record<string, unknown>) =>
  expect((await ctx().panel.request("/api/settings", { token: ctx().admin.token, ...jsonInit("PUT", { modSources: { modrinth: { url: modrinth.url }, ...modSources } }) })).status).toBe(204);
beforeAll(() => setSources({ papermc: { url: lists.papermc }, purpur: { url: lists.purpur }, fabric: { url: lists.fabric }, quilt: { url: lists.quilt }, neoforge: { url: lists.neoforge }, forge: { url: lists.forge } }));

describe.skipIf(!resticHere)("switching a Fabric server's loader", () => {
  let id: string;
  const folder = () => join(ctx().node.config.dataDir, "servers", id);
  const { call: mods, followed } = modsApi(ctx, () => id);
  const values = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data;
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "fabric-loader-switch", loaderTemplate());
    id = await ctx().createServer("Loader switching", { template: "fabric-loader-switch" });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
    writeFileSync(join(folder(), "world.txt"), "the user's world");
  }, 30_000);

  test("offered: latest, then the loaders Fabric lists for the Minecraft version it runs, the one now marked by value", async () => {
    const { status, body } = await mods("GET", "/versions");
    expect(status).toBe(200);
    expect(body).toMatchObject({ platform: "fabric", gameVersion: "1.19.2", loaderVersion: "0.14.11", variable: "version" });
    expect(body.loader).toEqual({ variable: "loader", value: "0.14.11", versions: ["latest", "0.14.12", "0.14.11"] });
    expect(lists.asked).toContain("/fabric/versions/loader/1.19.2");
  });

  test("the value now, a version not listed and an empty one are refused; a plan keeps the Minecraft version and the add-ons", async () => {
    for (const [loaderVersion, code] of [["0.14.11", "ErrFieldNotBetween"], ["0.14.99", "ErrFieldNotBetween"], ["", "ErrFieldRequired"]] as const) {
      const answer = await mods("POST", "/versions/plan", { loaderVersion });
      expect({ loaderVersion, status: answer.status, code: answer.body.error?.code }).toEqual({ loaderVersion, status: 400, code });
    }
    const { status, body } = await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ what: "loader", platform: "fabric", gameVersion: "1.19.2", from: "0.14.11", to: "0.14.12", variable: "loader", folder: null, update: [], missing: [] });
  });

  test("applied: a backup, the install run again with the new loader, the user's files kept; undone: all as before", async () => {
    const plan = (await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" })).body;
    const started = await mods("POST", `/versions/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ switchTo: "0.14.12", switchOf: "loader" });
    const done = await followed(started.body.changeId);
    expect(done.state).toBe("done");
    expect(done.backup).toBeString();
    expect((await values()).loader).toBe("0.14.12");
    expect((await values()).version).toBe("1.19.2");
    expect(readFileSync(join(folder(), "installed.txt"), "utf8")).toBe("Minecraft 1.19.2 with loader 0.14.12");
    expect(readFileSync(join(folder(), "world.txt"), "utf8")).toBe("the user's world");
    expect((await mods("GET", "/versions")).body).toMatchObject({ loaderVersion: "0.14.12", loader: { value: "0.14.12" } });

    const undone = await followed((await mods("POST", `/changes/${done.changeId}/undo`)).body.changeId);
    expect(undone.state).toBe("undone");
    expect((await values()).loader).toBe("0.14.11");
    expect(readFileSync(join(folder(), "installed.txt"), "utf8")).toBe("Minecraft 1.19.2 with loader 0.14.11");
  }, 60_000);

  test("the platform's list turned off hides only the loader's versions; planning says the source is unavailable", async () => {
    try {
      await setSources({ papermc: { url: lists.papermc }, fabric: { url: lists.fabric, enabled: false }, neoforge: { url: lists.neoforge } });
      const { status, body } = await mods("GET", "/versions");
      expect(status).toBe(200);
      expect(body.versions).toContain("1.20.1");
      expect(body.loader).toEqual({ variable: "loader", value: "0.14.11", versions: [], unavailable: true });
      const planned = await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" });
      expect(planned.body.error?.code).toBe("ErrModSourceUnavailable");
    } finally {
      await setSources({ papermc: { url: lists.papermc }, purpur: { url: lists.purpur }, fabric: { url: lists.fabric }, quilt: { url: lists.quilt }, neoforge: { url: lists.neoforge }, forge: { url: lists.forge } });
    }
  });
});

describe("what is offered", () => {
  const { call: mods } = modsApi(ctx, () => id);
  let id: string;

  test("a Paper server: latest, then PaperMC's builds of its Minecraft version newest first, at most 50", async () => {
    await putTemplate(ctx().panel.db, "paper-build-switch", {
      ...switchTemplate(),
      name: "paper-build-switch",
      addons: { platform: "paper", gameVersion: "${version}", loaderVersion: "${build}" },
      install: [],
      data: { ...switchTemplate().data, build: { display: "Paper build", desc: "", type: "string", value: "latest", required: true, userEdit: true } },
    });
    id = await ctx().createServer("Paper builds", { template: "paper-build-switch" });
    writeFileSync(join(ctx().node.config.dataDir, "servers", id, "version_history.json"), JSON.stringify({ currentVersion: "git-Paper-57 (MC: 1.21.8)" }));
    const { body } = await mods("GET", "/versions");
    const recorded = (lists.recorded("/papermc/projects/paper/versions") as { versions: { version: { id: string }; builds: number[] }[] }).versions.find((v) => v.version.id === "1.21.8")!.builds;
    expect(recorded.length).toBeGreaterThan(50);
    expect(body).toMatchObject({ platform: "paper", gameVersion: "1.21.8", loaderVersion: "57" });
    expect(body.loader.value).toBe("latest");
    expect(body.loader.versions).toEqual(["latest", ...recorded.toSorted((a, b) => b - a).slice(0, 50).map(String)]);
    expect(body.loader.versions[1]).toBe("60");
  });

  test("PaperMC's builds in the order it lists them (oldest first for some versions): offered newest first", async () => {
    writeFileSync(join(ctx().node.config.dataDir, "servers", id, "version_history.json"), JSON.stringify({ currentVersion: "git-Paper-40 (MC: 1.21.9)" }));
    const { body } = await mods("GET", "/versions");
    expect(body.loader.versions).toEqual(["latest", "49", "48", "47", "46", "45", "44", "42", "41", "40", "38", "37"]);
  });

  test("a NeoForge server: latest, then the builds NeoForge's Maven lists for its Minecraft version, newest first, at most 50", async () => {
    await putTemplate(ctx().panel.db, "neoforge-build-switch", {
      ...switchTemplate(),
      name: "neoforge-build-switch",
      addons: { platform: "neoforge", gameVersion: "${version}", loaderVersion: "${neoforge}" },
      install: [],
      data: { ...switchTemplate().data, neoforge: { display: "NeoForge version", desc: "", type: "string", value: "latest", required: true, userEdit: true } },
    });
    id = await ctx().createServer("NeoForge builds", { template: "neoforge-build-switch" });
    mkdirSync(join(ctx().node.config.dataDir, "servers", id, "libraries/net/neoforged/neoforge/21.1.200"), { recursive: true });
    writeFileSync(join(ctx().node.config.dataDir, "servers", id, "libraries/net/neoforged/neoforge/21.1.200/unix_args.txt"), "");
    const { body } = await mods("GET", "/versions");
    expect(body).toMatchObject({ platform: "neoforge", gameVersion: "1.21.1", loaderVersion: "21.1.200" });
    expect(body.loader.versions).toHaveLength(51);
    expect(body.loader.versions.slice(0, 4)).toEqual(["latest", "21.1.226", "21.1.225", "21.1.224"]);
    expect(body.loader.versions.every((v: string) => v === "latest" || v.startsWith("21.1."))).toBe(true);
    expect(lists.asked).toContain("/neoforge/releases/net/neoforged/neoforge/maven-metadata.xml");
    const { status, body: plan } = await mods("POST", "/versions/plan", { loaderVersion: "21.1.226" });
    expect(status).toBe(200);
    expect(plan).toMatchObject({ what: "loader", platform: "neoforge", gameVersion: "1.21.1", from: "21.1.200", to: "21.1.226", variable: "neoforge" });
  });

  test("a Purpur server (the shipped template's statement): latest, then the builds Purpur lists for its Minecraft version, newest first", async () => {
    await putTemplate(ctx().panel.db, "minecraft-purpur", { ...(SHIPPED_TEMPLATE_SOURCES["minecraft-purpur"] as object), install: [] });
    id = await ctx().createServer("Purpur builds", { template: "minecraft-purpur" });
    writeFileSync(join(ctx().node.config.dataDir, "servers", id, "version_history.json"), JSON.stringify({ currentVersion: "git-Purpur-2327 (MC: 1.21.1)" }));
    const { body } = await mods("GET", "/versions");
    expect(body).toMatchObject({ platform: "purpur", gameVersion: "1.21.1" });
    expect(body.loader).toEqual({ variable: "build", value: "latest", versions: ["latest", "2329", "2328", "2327", "2301", "2300"] });
    expect(lists.asked).toContain("/purpur/v2/purpur/1.21.1");
    const { status, body: plan } = await mods("POST", "/versions/plan", { loaderVersion: "2329" });
    expect(status).toBe(200);
    expect(plan).toMatchObject({ what: "loader", platform: "purpur", gameVersion: "1.21.1", to: "2329", variable: "build" });
  });

  test("a Quilt server (the shipped template's statement): latest, then the loaders Quilt's meta lists for its Minecraft version, as it orders them", async () => {
    await putTemplate(ctx().panel.db, "minecraft-quilt", { ...(SHIPPED_TEMPLATE_SOURCES["minecraft-quilt"] as object), install: [] });
    id = await ctx().createServer("Quilt loaders", { template: "minecraft-quilt" });
    const folder = join(ctx().node.config.dataDir, "servers", id);
    for (const dir of ["libraries/org/quiltmc/quilt-loader/0.25.0", "libraries/net/fabricmc/intermediary/1.21.1"]) mkdirSync(join(folder, dir), { recursive: true });
    writeFileSync(join(folder, "quilt-server-launch.jar"), "");
    const { body } = await mods("GET", "/versions");
    expect(body).toMatchObject({ platform: "quilt", gameVersion: "1.21.1", loaderVersion: "0.25.0" });
    expect(body.loader).toEqual({ variable: "loader", value: "latest", versions: ["latest", "0.26.4", "0.26.4-beta.2", "0.26.3", "0.25.0"] });
    expect(lists.asked).toContain("/quilt/versions/loader/1.21.1");
    const { status, body: plan } = await mods("POST", "/versions/plan", { loaderVersion: "0.26.4" });
    expect(status).toBe(200);
    expect(plan).toMatchObject({ what: "loader", platform: "quilt", gameVersion: "1.21.1", from: "0.25.0", to: "0.26.4", variable: "loader" });
  });

  test("a Forge server: recommended and latest, then the builds Forge's Maven lists for its Minecraft version, newest first, as the variable holds them", async () => {
    await putTemplate(ctx().panel.db, "forge-build-switch", {
      ...switchTemplate(),
      name: "forge-build-switch",
      addons: { platform: "forge", gameVersion: "${version}", loaderVersion: "${forge}" },
      install: [],
      data: { ...switchTemplate().data, version: { ...switchTemplate().data.version, value: "1.20.1" }, forge: { display: "Forge version", desc: "", type: "string", value: "recommended", required: true, userEdit: true } },
    });
    id = await ctx().createServer("Forge builds", { template: "forge-build-switch" });
    mkdirSync(join(ctx().node.config.dataDir, "servers", id, "libraries/net/minecraftforge/forge/1.20.1-47.1.0"), { recursive: true });
    writeFileSync(join(ctx().node.config.dataDir, "servers", id, "libraries/net/minecraftforge/forge/1.20.1-47.1.0/unix_args.txt"), "");
    const { body } = await mods("GET", "/versions");
    expect(body).toMatchObject({ platform: "forge", gameVersion: "1.20.1" });
    // 1.20.1-47.1.3 sorts after 1.20.1-47.1.0 and 46.0.14 by its numbers; other Minecraft versions' builds are not offered.
    expect(body.loader).toEqual({ variable: "forge", value: "recommended", versions: ["recommended", "latest", "47.1.3", "47.1.0", "46.0.14"] });
    expect(lists.asked).toContain("/forge/net/minecraftforge/forge/maven-metadata.xml");
    const { status, body: plan } = await mods("POST", "/versions/plan", { loaderVersion: "47.1.3" });
    expect(status).toBe(200);
    expect(plan).toMatchObject({ what: "loader", platform: "forge", gameVersion: "1.20.1", to: "47.1.3", variable: "forge" });
  });

  test("a template's own options are offered as they are, and no list is asked", async () => {
    await putTemplate(ctx().panel.db, "fabric-loader-options", { ...loaderTemplate({ options: [{ value: "0.15.11", display: "0.15.11" }, { value: "0.14.11", display: "0.14.11" }] }), name: "fabric-loader-options" });
    id = await ctx().createServer("Loader options", { template: "fabric-loader-options" });
    const asked = lists.asked.length;
    const { body } = await mods("GET", "/versions");
    expect(body.loader).toEqual({ variable: "loader", value: "0.14.11", versions: ["0.15.11", "0.14.11"] });
    expect(lists.asked.length).toBe(asked);
  });

  test("a template that names no loader variable offers none, and a loader plan says why", async () => {
    await putTemplate(ctx().panel.db, "fabric-switch", switchTemplate());
    id = await ctx().createServer("No loader variable", { template: "fabric-switch" });
    expect((await mods("GET", "/versions")).body.loader).toBeNull();
    const planned = await mods("POST", "/versions/plan", { loaderVersion: "0.14.12" });
    expect({ status: planned.status, code: planned.body.error?.code }).toEqual({ status: 409, code: "ErrModLoaderSwitchUnavailable" });
  });
});
