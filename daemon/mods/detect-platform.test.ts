import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Jail } from "../files/jail";
import { detectPlatform, NOTHING_RECOGNISED } from "./detect-platform";
import { dirNames, MAX_DIR_ENTRIES } from "./dir-names";
import { jarFacts } from "./jar-facts";
import { forgeVersions, neoForgeVersions } from "./loader-libraries";
import { fabricLaunchJar, fabricServerLauncherJar, mojangVersion, paperclipJar, serverFolder, vanillaJar, yazlJar } from "./test-server-folders";

const detect = (files: Record<string, string | Buffer>) => detectPlatform(new Jail(serverFolder(files)));
const FORGE_RUN_SH = (path: string) => `#!/usr/bin/env sh\njava @user_jvm_args.txt @${path}/unix_args.txt "$@"\n`;

describe("plugin platforms", () => {
  test("Paper after a start: version_history.json decides, with the game version and the build", async () => {
    expect(await detect({
      "version_history.json": JSON.stringify({ currentVersion: "git-Paper-196 (MC: 1.20.1)" }),
      "server.jar": await paperclipJar("paper", "1.20.1"),
      "spigot.yml": "settings: {}\n",
      "config/paper-global.yml": "_version: 28\n",
    })).toEqual({ platform: "paper", gameVersion: "1.20.1", loaderVersion: "196", folder: "plugins", detectedFrom: "version_history.json" });
  });

  test("Purpur names itself in version_history.json", async () => {
    expect(await detect({ "version_history.json": JSON.stringify({ oldVersion: "git-Purpur-2061 (MC: 1.20.1)", currentVersion: "git-Purpur-2062 (MC: 1.20.1)" }) }))
      .toEqual({ platform: "purpur", gameVersion: "1.20.1", loaderVersion: "2062", folder: "plugins", detectedFrom: "version_history.json" });
  });

  test("purpur.yml makes it Purpur even where version_history.json does not say so; the game version still comes from there", async () => {
    expect(await detect({
      "version_history.json": JSON.stringify({ currentVersion: "1.21.4-2416-7b8fc76 (MC: 1.21.4)" }),
      "purpur.yml": "config-version: 35\n",
      "config/paper-global.yml": "",
    })).toEqual({ platform: "purpur", gameVersion: "1.21.4", folder: "plugins", detectedFrom: "purpur.yml" });
  });

  test("before the first start, the download's name: paper-<game>-<build>.jar, purpur-<game>-<build>.jar", async () => {
    expect(await detect({ "paper-1.20.1-196.jar": await paperclipJar("paper", "1.20.1"), "eula.txt": "eula=true\n" }))
      .toEqual({ platform: "paper", gameVersion: "1.20.1", loaderVersion: "196", folder: "plugins", detectedFrom: "paper-1.20.1-196.jar" });
    expect(await detect({ "purpur-1.20-pre1-2001.jar": "not even a zip" }))
      .toEqual({ platform: "purpur", gameVersion: "1.20-pre1", loaderVersion: "2001", folder: "plugins", detectedFrom: "purpur-1.20-pre1-2001.jar" });
  });

  test("a Paperclip renamed server.jar (Pterodactyl's egg) is told by what it holds", async () => {
    expect(await detect({ "server.jar": await paperclipJar("paper", "1.20.4") }))
      .toEqual({ platform: "paper", gameVersion: "1.20.4", folder: "plugins", detectedFrom: "server.jar" });
    expect(await detect({ "server.jar": await paperclipJar("purpur", "1.20.4") }))
      .toEqual({ platform: "purpur", gameVersion: "1.20.4", folder: "plugins", detectedFrom: "server.jar" });
  });

  test("Paper's own files win over spigot.yml, which Paper writes too", async () => {
    expect(await detect({ "spigot.yml": "", "bukkit.yml": "", "paper.yml": "" }))
      .toEqual({ platform: "paper", gameVersion: null, folder: "plugins", detectedFrom: "paper.yml" });
  });

  test("Spigot: spigot.yml without Paper's files; the version from BuildTools' jar or the jar's version.json", async () => {
    expect(await detect({ "spigot.yml": "", "spigot-1.20.1.jar": "x" }))
      .toEqual({ platform: "spigot", gameVersion: "1.20.1", folder: "plugins", detectedFrom: "spigot-1.20.1.jar" });
    const renamed = await yazlJar({ "META-INF/MANIFEST.MF": "Main-Class: org.bukkit.craftbukkit.Main\n\n", "version.json": mojangVersion("1.16.5") });
    expect(await detect({ "spigot.yml": "", "server.jar": renamed }))
      .toEqual({ platform: "spigot", gameVersion: "1.16.5", folder: "plugins", detectedFrom: "server.jar" });
  });
});

describe("mod loaders", () => {
  test("Fabric as its installer and Pterodactyl's egg leave it: the loader's libraries decide", async () => {
    expect(await detect({
      "server.jar": await fabricLaunchJar("0.15.11", "1.20.1"),
      "minecraft-server.jar": await vanillaJar("1.20.1"),
      "fabric-server-launcher.properties": "serverJar=minecraft-server.jar\n",
      "libraries/net/fabricmc/fabric-loader/0.15.11/": "",
      "libraries/net/fabricmc/intermediary/1.20.1/": "",
      ".fabric/": "",
    })).toEqual({ platform: "fabric", gameVersion: "1.20.1", loaderVersion: "0.15.11", folder: "mods", detectedFrom: "libraries/net/fabricmc/fabric-loader/0.15.11" });
  });

  test("Fabric's libraries alone: the game version from the mappings, else from the vanilla jar", async () => {
    expect(await detect({ "libraries/net/fabricmc/fabric-loader/0.14.21/": "", "libraries/net/fabricmc/intermediary/1.19.4/": "" }))
      .toEqual({ platform: "fabric", gameVersion: "1.19.4", loaderVersion: "0.14.21", folder: "mods", detectedFrom: "libraries/net/fabricmc/fabric-loader/0.14.21" });
    expect(await detect({ "libraries/net/fabricmc/fabric-loader/0.14.21/": "", "server.jar": await vanillaJar("1.20.2") }))
      .toEqual({ platform: "fabric", gameVersion: "1.20.2", loaderVersion: "0.14.21", folder: "mods", detectedFrom: "libraries/net/fabricmc/fabric-loader/0.14.21" });
  });

  test("Fabric's single-file launcher as server.jar (Kiln's own install), before the first start", async () => {
    expect(await detect({ "server.jar": await fabricServerLauncherJar("0.15.11", "1.20.1"), "eula.txt": "eula=true\n" }))
      .toEqual({ platform: "fabric", gameVersion: "1.20.1", loaderVersion: "0.15.11", folder: "mods", detectedFrom: "server.jar" });
    expect(await detect({ "fabric-server-mc.1.20.1-loader.0.15.11-launcher.1.0.1.jar": "x" }))
      .toEqual({ platform: "fabric", gameVersion: "1.20.1", loaderVersion: "0.15.11", folder: "mods", detectedFrom: "fabric-server-mc.1.20.1-loader.0.15.11-launcher.1.0.1.jar" });
  });

  test("Quilt: its loader's libraries, the game version from the mappings", async () => {
    expect(await detect({
      "libraries/org/quiltmc/quilt-loader/0.26.0/": "",
      "libraries/net/fabricmc/intermediary/1.20.1/": "",
      "quilt-server-launcher.properties": "serverJar=minecraft.jar\n",
    })).toEqual({ platform: "quilt", gameVersion: "1.20.1", loaderVersion: "0.26.0", folder: "mods", detectedFrom: "libraries/org/quiltmc/quilt-loader/0.26.0" });
    expect(await detect({ "quilt-server-launch.jar": "x", "quilt-server-launcher.properties": "serverJar=minecraft.jar\n", "minecraft.jar": await vanillaJar("1.20.1") }))
      .toEqual({ platform: "quilt", gameVersion: "1.20.1", folder: "mods", detectedFrom: "quilt-server-launch.jar" });
  });

  test("Forge 1.17+: libraries/net/minecraftforge/forge/<game>-<forge>/", async () => {
    const path = "libraries/net/minecraftforge/forge/1.20.1-47.2.0";
    expect(await detect({ [`${path}/unix_args.txt`]: "", "run.sh": FORGE_RUN_SH(path), "user_jvm_args.txt": "" }))
      .toEqual({ platform: "forge", gameVersion: "1.20.1", loaderVersion: "47.2.0", folder: "mods", detectedFrom: path });
  });

  test("Forge before 1.17: forge-<game>-<forge>.jar in the folder, or renamed server.jar holding its launcher profile", async () => {
    expect(await detect({ "forge-1.12.2-14.23.5.2860.jar": "x", "minecraft_server.1.12.2.jar": "x" }))
      .toEqual({ platform: "forge", gameVersion: "1.12.2", loaderVersion: "14.23.5.2860", folder: "mods", detectedFrom: "forge-1.12.2-14.23.5.2860.jar" });
    expect(await detect({ "forge-1.7.10-10.13.4.1614-1.7.10-universal.jar": "x" }))
      .toEqual({ platform: "forge", gameVersion: "1.7.10", loaderVersion: "10.13.4.1614", folder: "mods", detectedFrom: "forge-1.7.10-10.13.4.1614-1.7.10-universal.jar" });
    const universal = await yazlJar({
      "META-INF/MANIFEST.MF": "Main-Class: net.minecraftforge.fml.relauncher.ServerLaunchWrapper\n\n",
      "version.json": JSON.stringify({ id: "1.12.2-forge-14.23.5.2860", inheritsFrom: "1.12.2", mainClass: "net.minecraft.launchwrapper.Launch" }),
    });
    expect(await detect({ "server.jar": universal, "forge-1.12.2-14.23.5.2860-installer.jar": "x" }))
      .toEqual({ platform: "forge", gameVersion: "1.12.2", folder: "mods", detectedFrom: "server.jar" });
  });

  test("NeoForge: its versions name the game version without the 1.; 1.20.1's NeoForge kept Forge's numbering", async () => {
    const neo = (version: string) => detect({ [`libraries/net/neoforged/neoforge/${version}/unix_args.txt`]: "" });
    expect(await neo("20.4.237")).toEqual({ platform: "neoforge", gameVersion: "1.20.4", loaderVersion: "20.4.237", folder: "mods", detectedFrom: "libraries/net/neoforged/neoforge/20.4.237" });
    expect((await neo("21.1.77")).gameVersion).toBe("1.21.1");
    expect((await neo("21.0.167")).gameVersion).toBe("1.21");
    expect(await detect({ "libraries/net/neoforged/forge/1.20.1-47.1.106/": "" }))
      .toEqual({ platform: "neoforge", gameVersion: "1.20.1", loaderVersion: "47.1.106", folder: "mods", detectedFrom: "libraries/net/neoforged/forge/1.20.1-47.1.106" });
    // A later numbering is not guessed: the patched server's library gives the game version.
    expect(await detect({ "libraries/net/neoforged/neoforge/26.1.0.5-beta/": "", "libraries/net/minecraft/server/26.1-20260301.120000/": "" }))
      .toMatchObject({ platform: "neoforge", gameVersion: "26.1", loaderVersion: "26.1.0.5-beta" });
  });

  test("several loaders or versions installed: run.sh or the unix_args.txt link names the one that starts, else the newest", async () => {
    const forge = "libraries/net/minecraftforge/forge";
    const neo = "libraries/net/neoforged/neoforge";
    const both = { [`${forge}/1.20.1-47.2.0/`]: "", [`${forge}/1.20.1-47.10.1/`]: "", [`${neo}/20.4.237/`]: "" };
    expect((await detect(both)).detectedFrom).toBe(`${neo}/20.4.237`);
    expect(await detect({ ...both, "run.sh": FORGE_RUN_SH(`${forge}/1.20.1-47.2.0`) }))
      .toMatchObject({ platform: "forge", loaderVersion: "47.2.0", detectedFrom: `${forge}/1.20.1-47.2.0` });
    const root = serverFolder({ [`${forge}/1.20.1-47.2.0/`]: "", [`${forge}/1.20.1-47.10.1/`]: "" });
    expect((await detectPlatform(new Jail(root))).loaderVersion).toBe("47.10.1");
    symlinkSync(`${forge}/1.20.1-47.2.0/unix_args.txt`, join(root, "unix_args.txt"));
    expect((await detectPlatform(new Jail(root))).loaderVersion).toBe("47.2.0");
  });

  test("the server's own jar picks between two installed loaders when no run.sh does", async () => {
    const libraries = { "libraries/org/quiltmc/quilt-loader/0.26.0/": "", "libraries/net/fabricmc/fabric-loader/0.15.11/": "" };
    expect((await detect(libraries)).platform).toBe("quilt");
    expect((await detect({ ...libraries, "server.jar": await fabricLaunchJar("0.15.11", "1.20.1") })).platform).toBe("fabric");
  });

  test("a loader's libraries win over jar names and plugin files", async () => {
    expect(await detect({
      "libraries/net/minecraftforge/forge/1.20.1-47.2.0/": "",
      "paper-1.19.4-550.jar": "x",
      "spigot.yml": "",
      "version_history.json": JSON.stringify({ currentVersion: "git-Paper-550 (MC: 1.19.4)" }),
    })).toEqual({ platform: "forge", gameVersion: "1.20.1", loaderVersion: "47.2.0", folder: "mods", detectedFrom: "libraries/net/minecraftforge/forge/1.20.1-47.2.0" });
  });
});

describe("vanilla and nothing", () => {
  test("vanilla: a server.jar with Mojang's version.json and no loader; no add-on folder", async () => {
    expect(await detect({ "server.jar": await vanillaJar("1.20.1"), "server.properties": "" }))
      .toEqual({ platform: "vanilla", gameVersion: "1.20.1", folder: null, detectedFrom: "server.jar" });
    expect(await detect({ "minecraft_server.1.12.2.jar": "x" }))
      .toEqual({ platform: "vanilla", gameVersion: "1.12.2", folder: null, detectedFrom: "minecraft_server.1.12.2.jar" });
    const custom = await yazlJar({ "version.json": mojangVersion("23w31a") });
    expect(await detect({ "minecraft.jar": custom })).toEqual({ platform: "vanilla", gameVersion: "23w31a", folder: null, detectedFrom: "minecraft.jar" });
  });

  test("nothing recognised: an empty folder, a world only, a jar that is not a server", async () => {
    expect(await detect({})).toEqual(NOTHING_RECOGNISED);
    expect(NOTHING_RECOGNISED).toEqual({ platform: null, gameVersion: null, folder: null, detectedFrom: "" });
    expect(await detect({ "world/level.dat": "x", "server.properties": "motd=hi\n" })).toEqual(NOTHING_RECOGNISED);
    expect(await detect({ "server.jar": await yazlJar({ "META-INF/MANIFEST.MF": "Main-Class: com.example.Bot\n\n" }) })).toEqual(NOTHING_RECOGNISED);
  });
});

describe("the parts", () => {
  test("Forge and NeoForge folder names", () => {
    expect(forgeVersions("1.20.1-47.2.0")).toEqual({ gameVersion: "1.20.1", loaderVersion: "47.2.0" });
    expect(forgeVersions("1.8.9-11.15.1.2318-1.8.9")).toEqual({ gameVersion: "1.8.9", loaderVersion: "11.15.1.2318" });
    expect(neoForgeVersions("20.2.3-beta")).toEqual({ gameVersion: "1.20.2", loaderVersion: "20.2.3-beta" });
    expect(neoForgeVersions("19.0.1")).toEqual({ gameVersion: null, loaderVersion: "19.0.1" });
  });

  test("jar facts: each entry's reading, and what is not a version is dropped", () => {
    const facts = (entries: Record<string, string>) => jarFacts(new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)])));
    expect(facts({ "install.properties": "quilt-loader-version=0.26.0\ngame-version=1.20.1\n" })).toEqual({ platform: "quilt", gameVersion: "1.20.1", loaderVersion: "0.26.0", mojang: false });
    expect(facts({ "META-INF/versions.list": "h\tspigot-1.20.1-R0.1-SNAPSHOT\tspigot-1.20.1-R0.1-SNAPSHOT.jar\n" })).toEqual({ platform: "spigot", gameVersion: "1.20.1", loaderVersion: null, mojang: false });
    expect(facts({ "version.json": JSON.stringify({ id: "1.20.1", name: "1.20.1" }) })).toEqual({ platform: null, gameVersion: null, loaderVersion: null, mojang: false });
    expect(facts({ "version.json": "{not json", "META-INF/MANIFEST.MF": "garbage\n\n" })).toEqual({ platform: null, gameVersion: null, loaderVersion: null, mojang: false });
    expect(facts({ "version.json": JSON.stringify({ id: "<b>1</b>", world_version: 1 }) })).toEqual({ platform: null, gameVersion: null, loaderVersion: null, mojang: true });
  });

  test("a folder's entries are read up to the limit, with their kinds, links not followed", () => {
    const root = serverFolder({ "a-file": "x", "a-folder/": "" });
    symlinkSync("/etc", join(root, "a-link"));
    for (let i = 0; i < MAX_DIR_ENTRIES + 200; i++) mkdirSync(join(root, `many/${i}`), { recursive: true });
    const jail = new Jail(root);
    const kinds = Object.fromEntries((dirNames(jail, "") ?? []).map((e) => [e.name, e.kind]));
    expect(kinds).toEqual({ "a-file": "file", "a-folder": "folder", "a-link": "link", many: "folder" });
    expect(dirNames(jail, "many")).toHaveLength(MAX_DIR_ENTRIES);
    expect(dirNames(jail, "many", 5)).toHaveLength(5);
    expect(dirNames(jail, "a-link")).toBeNull();
    expect(dirNames(jail, "a-file")).toBeNull();
    expect(dirNames(jail, "missing")).toBeNull();
  });
});
