// The one rule for what a modpack gives a server, as the panel and the node both read it.
import { describe, expect, test } from "bun:test";
import { isPackPath, overrideTarget, packPlatform, serverFiles, type PackIndex } from "./pack";

describe("the places a pack may write", () => {
  test("plain paths, dot-names a pack ships (Fabric's .fabric/, a .gitkeep) and names with spaces", () => {
    for (const path of ["mods/a.jar", ".fabric/remapped.json", "config/.gitkeep", "server.properties", "a b/c (1).txt"]) expect({ path, allowed: isPackPath(path) }).toEqual({ path, allowed: true });
  });

  test("never a way out, an empty or dot segment, Kiln's own names, a backslash, a NUL, nor deeper than 8", () => {
    const refused = ["../x", "/etc/cron.d/x", "mods/../../x", "mods/./x.jar", ".", "..", "", "a//b", ".kiln-pack-1/y.jar", ".KILN-extract-2", "mods/x.jar.0f.kiln-partial", "mods\\..\\x", "a/b/c/d/e/f/g/h/i.jar", "mods/\u0000.jar", `${"x".repeat(152)}.jar`];
    for (const path of refused) expect({ path, allowed: isPackPath(path) }).toEqual({ path, allowed: false });
  });
});

describe("what a server gets of a pack", () => {
  const index: PackIndex = {
    formatVersion: 1,
    game: "minecraft",
    versionId: "1.0.0",
    name: "Pack",
    files: [
      { path: "mods/both.jar", hashes: { sha1: "a".repeat(40), sha512: "b".repeat(128) }, downloads: ["https://cdn.modrinth.com/a.jar"], fileSize: 1 },
      { path: "mods/server.jar", hashes: { sha1: "a".repeat(40), sha512: "c".repeat(128) }, env: { client: "unsupported", server: "required" }, downloads: ["https://cdn.modrinth.com/b.jar", "https://github.com/b.jar"], fileSize: 2 },
      { path: "mods/optional.jar", hashes: { sha1: "a".repeat(40), sha512: "d".repeat(128) }, env: { client: "required", server: "optional" }, downloads: ["https://cdn.modrinth.com/c.jar"], fileSize: 3 },
      { path: "mods/client.jar", hashes: { sha1: "a".repeat(40), sha512: "e".repeat(128) }, env: { client: "required", server: "unsupported" }, downloads: ["https://cdn.modrinth.com/d.jar"], fileSize: 4 },
    ],
    dependencies: { minecraft: "1.20.1", "fabric-loader": "0.15.11" },
  };

  test("every file but the client-only ones, from its first download", () => {
    expect(serverFiles(index).map((f) => [f.path, f.url])).toEqual([["mods/both.jar", "https://cdn.modrinth.com/a.jar"], ["mods/server.jar", "https://cdn.modrinth.com/b.jar"], ["mods/optional.jar", "https://cdn.modrinth.com/c.jar"]]);
  });

  test("overrides/ and server-overrides/ files, never client-overrides/, the index or a folder entry", () => {
    expect(overrideTarget("overrides/config/a.toml")).toBe("config/a.toml");
    expect(overrideTarget("server-overrides/server.properties")).toBe("server.properties");
    for (const entry of ["client-overrides/options.txt", "modrinth.index.json", "overrides/config/", "overridesx/a"]) expect({ entry, target: overrideTarget(entry) }).toEqual({ entry, target: null });
  });

  test("the loader and Minecraft version from the dependencies", () => {
    expect(packPlatform(index)).toEqual({ loader: "fabric", loaderVersion: "0.15.11", gameVersion: "1.20.1" });
    expect(packPlatform({ dependencies: { minecraft: "1.21.1", neoforge: "21.1.1" } })).toEqual({ loader: "neoforge", loaderVersion: "21.1.1", gameVersion: "1.21.1" });
    expect(packPlatform({ dependencies: { minecraft: "1.20.4" } })).toEqual({ loader: "vanilla", loaderVersion: null, gameVersion: "1.20.4" });
  });
});
