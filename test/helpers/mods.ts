// The mods tests' set-up (a local Modrinth, a panel pointed at it, a Fabric server folder) and the
// mods API of one server as they call it: a JSON call (status and body), and a plan applied and
// followed until its change ends.
import { afterAll, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually } from "./node";
import { jsonInit, panelForAll, type PanelWithNode } from "./panel-node";
import { startModrinthFixture, type ModrinthFixture } from "./modrinth-fixture";
import type { SourceUrls } from "../../daemon/config";
import { CURSEFORGE_KEY, startCurseForgeModsFixture, type CurseForgeModsFixture } from "./curseforge-mods-fixture";
import { API_KEY as PACKS_KEY, startCurseForgeFixture, type CurseForgeFixture } from "./curseforge-fixture";
import { startFixtureSources } from "./step-sources";
import { minecraftStandIn } from "./minecraft-standin";
import { startHangarFixture, type HangarFixture } from "./hangar-fixture";
import { startSpigetFixture, type SpigetFixture } from "./spiget-fixture";
import { putTemplate } from "../../server/services/templates";
import { SHIPPED_TEMPLATE_SOURCES } from "../../templates";

/** `part`: "mods" (/api/servers/{id}/mods) or "modpacks"; a plan is applied there, its change followed under mods. */
export function modsApi(ctx: () => PanelWithNode, serverId: () => string, part: "mods" | "modpacks" = "mods") {
  async function at(prefix: string, method: string, path: string, body?: unknown, token = ctx().admin.token) {
    const response = await ctx().panel.request(`/api/servers/${serverId()}/${prefix}${path}`, { token, ...jsonInit(method, body) });
    return { status: response.status, body: await response.json() };
  }
  const call = (method: string, path: string, body?: unknown, token?: string) => at(part, method, path, body, token);
  async function apply(planId: string) {
    const started = await call("POST", `/plan/${planId}/apply`);
    expect(started.status).toBe(202);
    return followed(started.body.changeId);
  }
  /** The change followed until it ends: its last status. */
  async function followed(changeId: string) {
    let status: any;
    await eventually(async () => (status = (await at("mods", "GET", `/changes/${changeId}`)).body).state !== "running", 30_000, "the change to end");
    return status;
  }
  return { call, apply, followed };
}

/** The names in server `id`'s add-on folder, sorted (none when it is not there): what an attack must leave as it was. */
export function addonFolderNames(ctx: () => PanelWithNode, id: () => string, folder: "mods" | "plugins" = "plugins"): () => string[] {
  return () => {
    try {
      return readdirSync(join(ctx().node.config.dataDir, "servers", id(), folder)).sort();
    } catch {
      return [];
    }
  };
}

/**
 * For a test file: the local Modrinth (recorded answers), and a panel with a node whose sources
 * are it (the panel's modSources setting and the node's file host; `sources`: more of the node's),
 * both stopped after the file.
 */
export async function modrinthPanelForFile(sources: Partial<SourceUrls> = {}): Promise<{ modrinth: ModrinthFixture; ctx: () => PanelWithNode }> {
  const modrinth = await startModrinthFixture();
  afterAll(() => modrinth.stop());
  let made: PanelWithNode;
  panelForAll((ctx) => (made = ctx), { sources: { modrinthCdn: modrinth.cdn, ...sources } });
  beforeAll(async () => {
    const set = await made.panel.request("/api/settings", { token: made.admin.token, ...jsonInit("PUT", { modSources: { modrinth: { url: modrinth.url } } }) });
    expect(set.status).toBe(204);
  });
  return { modrinth, ctx: () => made };
}

/**
 * For a test file: the local CurseForge (recorded answers), and a panel with a node whose file host
 * for it is the stand-in's, CurseForge's URL set (its key too, with `withKey`), both stopped after the file.
 */
export async function curseforgePanelForFile(withKey: boolean): Promise<{ curseforge: CurseForgeModsFixture; ctx: () => PanelWithNode }> {
  const curseforge = await startCurseForgeModsFixture();
  afterAll(() => curseforge.stop());
  let made: PanelWithNode;
  panelForAll((ctx) => (made = ctx), { sources: { curseforgeCdn: curseforge.cdn } });
  beforeAll(async () => {
    const put = (path: string, body: unknown) => made.panel.request(path, { token: made.admin.token, ...jsonInit("PUT", body) });
    expect((await put("/api/settings", { modSources: { curseforge: { url: curseforge.url } } })).status).toBe(204);
    if (withKey) expect((await put("/api/settings/panel.mods.curseforgeKey", { value: CURSEFORGE_KEY })).status).toBe(204);
  });
  return { curseforge, ctx: () => made };
}

/**
 * For a test file: a panel with a node whose file host for `source` is the stand-in's
 * (`nodeSources`), the panel's URL for it `url`; the stand-in stopped after the file.
 */
function panelWithSource(stop: () => void, source: "hangar" | "spiget", url: string, nodeSources: Partial<SourceUrls>): () => PanelWithNode {
  afterAll(stop);
  let made: PanelWithNode;
  panelForAll((ctx) => (made = ctx), { sources: nodeSources });
  beforeAll(async () => {
    const set = await made.panel.request("/api/settings", { token: made.admin.token, ...jsonInit("PUT", { modSources: { [source]: { url } } }) });
    expect(set.status).toBe(204);
  });
  return () => made;
}

/** For a test file: the local Hangar and a panel whose node downloads from it. */
export async function hangarPanelForFile(): Promise<{ hangar: HangarFixture; ctx: () => PanelWithNode }> {
  const hangar = await startHangarFixture();
  return { hangar, ctx: panelWithSource(() => hangar.stop(), "hangar", hangar.url, { hangarCdn: hangar.cdn }) };
}

/** For a test file: the local Spiget and a panel whose node downloads from it. */
export function spigetPanelForFile(): { spiget: SpigetFixture; ctx: () => PanelWithNode } {
  const spiget = startSpigetFixture();
  return { spiget, ctx: panelWithSource(() => spiget.stop(), "spiget", spiget.url, { spigetCdn: spiget.origin }) };
}

/** A new Minecraft Java server (its Mods tab shown) whose folder is a Spigot server's (its jar, named for `gameVersion`); its id. */
export async function spigotServer(ctx: PanelWithNode, name: string, gameVersion: string): Promise<string> {
  const { id, folder } = await minecraftStandIn(ctx, name);
  writeFileSync(join(folder, `spigot-${gameVersion}.jar`), "");
  return id;
}

/**
 * For a test file about CurseForge modpacks: the CurseForge stand-in for packs
 * (./curseforge-fixture) and the install sites, and a panel with a node that reaches them, the
 * panel's CurseForge URL and key set (the node's key too) and the shipped minecraft-curseforge
 * template imported; all stopped after the file.
 */
export function curseforgePacksPanelForFile(): { curse: CurseForgeFixture; ctx: () => PanelWithNode } {
  const sites = startFixtureSources();
  const curse = startCurseForgeFixture();
  let made: PanelWithNode;
  panelForAll((ctx) => (made = ctx), { sources: { ...sites.sources, ...curse.sources }, curseforgeKey: PACKS_KEY });
  afterAll(() => {
    curse.stop();
    sites.stop();
  });
  beforeAll(async () => {
    const put = (path: string, body: unknown) => made.panel.request(path, { token: made.admin.token, ...jsonInit("PUT", body) });
    expect((await put("/api/settings", { modSources: { curseforge: { url: curse.sources.curseforge } } })).status).toBe(204);
    expect((await put("/api/settings/panel.mods.curseforgeKey", { value: PACKS_KEY })).status).toBe(204);
    await putTemplate(made.panel.db, "minecraft-curseforge", SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"]);
  });
  return { curse, ctx: () => made };
}

/** Waits for server `id`'s install on the node to have ended, with server.properties written (the CurseForge template's last steps). */
export function packInstalled(ctx: PanelWithNode, id: string): Promise<void> {
  return eventually(async () => (await ctx.node.json("GET", `/daemon/server/${id}/status`)).installing === false && existsSync(ctx.node.folder(id, "server.properties")), 30_000, "the install to finish");
}

/** Makes `folder` a Fabric server's (its loader libraries) for `gameVersion`. */
export function fabricFolder(folder: string, gameVersion: string): void {
  for (const [path, file] of [["libraries/net/fabricmc/fabric-loader/0.15.11", "fabric-loader-0.15.11.jar"], [`libraries/net/fabricmc/intermediary/${gameVersion}`, `intermediary-${gameVersion}.jar`]] as const) {
    mkdirSync(join(folder, path), { recursive: true });
    writeFileSync(join(folder, path, file), "");
  }
}

/** A new Minecraft Java server (its Mods tab shown) whose folder is a Fabric server's for `gameVersion`. */
export async function fabricStandIn(ctx: PanelWithNode, name: string, gameVersion: string): Promise<{ id: string; folder: string }> {
  const made = await minecraftStandIn(ctx, name);
  fabricFolder(made.folder, gameVersion);
  return made;
}

/** A new server whose folder is a Fabric server's for `gameVersion`; its id. */
export async function fabricServer(ctx: PanelWithNode, name: string, gameVersion: string): Promise<string> {
  const id = await ctx.createServer(name);
  fabricFolder(ctx.node.folder(id), gameVersion);
  return id;
}

/** A new Minecraft Java server (its Mods tab shown) whose folder is a Paper server's (its version_history.json) for `gameVersion`; its id. */
export async function paperServer(ctx: PanelWithNode, name: string, gameVersion: string): Promise<string> {
  const { id, folder } = await minecraftStandIn(ctx, name);
  writeFileSync(join(folder, "version_history.json"), JSON.stringify({ currentVersion: `git-Paper-196 (MC: ${gameVersion})` }));
  return id;
}

/**
 * A Fabric template whose install lays out the loader's libraries for `${version}` (after `extra`
 * steps): loader `loader` (a value or a variable), and an installed.txt saying `installed`.
 */
export function switchTemplate(extra: unknown[] = [], loader = "0.15.11", installed = "Minecraft ${version}") {
  const echo = echoTemplate();
  return {
    ...echo,
    name: "fabric-switch",
    addons: { platform: "fabric", gameVersion: "${version}" },
    install: [
      ...extra,
      { type: "command", commands: ["sh -c 'rm -rf libraries/net/fabricmc'"] },
      { type: "mkdir", target: `libraries/net/fabricmc/fabric-loader/${loader}` },
      { type: "writefile", target: `libraries/net/fabricmc/fabric-loader/${loader}/fabric-loader-${loader}.jar`, text: "" },
      { type: "mkdir", target: "libraries/net/fabricmc/intermediary/${version}" },
      { type: "writefile", target: "libraries/net/fabricmc/intermediary/${version}/intermediary-${version}.jar", text: "" },
      { type: "writefile", target: "installed.txt", text: installed },
    ],
    data: { ...echo.data, version: { display: "Minecraft version", desc: "", type: "string", value: "1.20.4", required: true, userEdit: true } },
  };
}

/** The switch template for Minecraft 1.19.2 whose statement names `${loader}` (0.14.11; `loader` adds to the variable) as its loader's version. */
export function loaderTemplate(loader: Record<string, unknown> = {}) {
  const base = switchTemplate([], "${loader}", "Minecraft ${version} with loader ${loader}");
  return {
    ...base,
    name: "fabric-loader-switch",
    addons: { platform: "fabric", gameVersion: "${version}", loaderVersion: "${loader}" },
    data: {
      ...base.data,
      version: { ...base.data.version, value: "1.19.2" },
      loader: { display: "Fabric loader", desc: "", type: "string", value: "0.14.11", required: true, userEdit: true, ...loader },
    },
  };
}

/** A version switch sent to the node itself (as if the panel were bypassed), expected refused: the catalogue code of its 4xx answer. */
export function switchRefusal(ctx: PanelWithNode, serverId: string) {
  return async (body: unknown): Promise<string> => {
    const answer = await ctx.node.call("POST", `/daemon/server/${serverId}/mods/versions`, body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    return ((await answer.json()) as { error: { code: string } }).error.code;
  };
}
