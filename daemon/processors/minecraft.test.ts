// mojangdl, forgedl, spongeforgedl and fabricdl against the local fixture stand-ins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stepSchema } from "../../core/definition/steps";
import { runStep } from "./index";
import { FIXTURES, startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

const run = (t: ReturnType<FixtureSources["context"]>, raw: unknown) => runStep(stepSchema.parse(raw), t.ctx);
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");
const forgeInstaller = (v: string) => fixture(`forge/net/minecraftforge/forge/${v}/forge-${v}-installer.jar`);

describe("mojangdl", () => {
  for (const [version, jar] of [["1.20.1", "1.20.1"], ["latest", "1.20.1"], ["release", "1.20.1"], ["snapshot", "23w31a"]] as const) {
    test(`${version} downloads the ${jar} server jar`, async () => {
      const t = fixtures.context();
      await run(t, { type: "mojangdl", version, target: "server.jar" });
      expect(readFileSync(join(t.root, "server.jar"), "utf8")).toBe(fixture(`mojang/server-${jar}.jar`));
    });
  }

  test("a sha1 mismatch is refused and nothing is written", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "mojangdl", version: "1.19.4", target: "server.jar" })).rejects.toThrow(/checksum mismatch .* expected sha1 0{40}, got [0-9a-f]{40}/);
    expect(readdirSync(t.root)).toEqual([]);
  });

  test("an unknown version, a version without a server and a target outside fail clearly", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "mojangdl", version: "9.9.9", target: "server.jar" })).rejects.toThrow("Minecraft version 9.9.9 is not in Mojang's version list");
    await expect(run(t, { type: "mojangdl", version: "0.30-classic", target: "server.jar" })).rejects.toThrow("Minecraft 0.30-classic has no server download");
    await expect(run(t, { type: "mojangdl", version: "1.20.1", target: "../server.jar" })).rejects.toThrow("outside the server's folder");
    expect(readdirSync(join(t.root, ".."))).toEqual(["folder"]);
    expect(readdirSync(t.root)).toEqual([]);
  });
});

describe("forgedl", () => {
  test("a full Forge version downloads that installer", async () => {
    const t = fixtures.context();
    await run(t, { type: "forgedl", version: "1.20.1-47.1.0", filename: "installer.jar" });
    expect(readFileSync(join(t.root, "installer.jar"), "utf8")).toBe(forgeInstaller("1.20.1-47.1.0"));
  });

  test("a bare Minecraft version takes the recommended build, else the latest", async () => {
    const t = fixtures.context();
    await run(t, { type: "forgedl", version: "1.20.1", filename: "a.jar" });
    await run(t, { type: "forgedl", version: "1.19.2", filename: "b.jar" });
    expect(readFileSync(join(t.root, "a.jar"), "utf8")).toBe(forgeInstaller("1.20.1-47.1.0"));
    expect(readFileSync(join(t.root, "b.jar"), "utf8")).toBe(forgeInstaller("1.19.2-43.2.0"));
  });

  test("no build for a Minecraft version, an unknown Forge version and a filename outside fail clearly", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "forgedl", version: "1.2.3", filename: "f.jar" })).rejects.toThrow("Forge has no build for Minecraft 1.2.3");
    await expect(run(t, { type: "forgedl", version: "1.20.1-0.0.0", filename: "f.jar" })).rejects.toThrow("HTTP 404");
    await expect(run(t, { type: "forgedl", version: "1.20.1-47.1.0", filename: "/etc/forge.jar" })).rejects.toThrow("outside the server's folder");
    expect(readdirSync(t.root)).toEqual([]);
  });
});

describe("spongeforgedl", () => {
  test("recommended: the stable SpongeForge in mods/ and its Forge as forge-installer.jar", async () => {
    const t = fixtures.context();
    await run(t, { type: "spongeforgedl", releaseType: "recommended" });
    expect(fixtures.hits).toContain("/sponge/v1/org.spongepowered/spongeforge/downloads?type=stable&limit=1");
    expect(readFileSync(join(t.root, "forge-installer.jar"), "utf8")).toBe(forgeInstaller("1.12.2-14.23.5.2860"));
    expect(readdirSync(join(t.root, "mods"))).toEqual(["spongeforge-1.12.2-2860-7.4.8.jar"]);
  });

  test("latest: the bleeding build", async () => {
    const t = fixtures.context();
    await run(t, { type: "spongeforgedl", releaseType: "latest" });
    expect(fixtures.hits).toContain("/sponge/v1/org.spongepowered/spongeforge/downloads?type=bleeding&limit=1");
    expect(readFileSync(join(t.root, "forge-installer.jar"), "utf8")).toBe(forgeInstaller("1.12.2-14.23.5.2838"));
    expect(readFileSync(join(t.root, "mods/spongeforge-1.12.2-2838-8.0.0-RC1.jar"), "utf8")).toBe(fixture("sponge/spongeforge-1.12.2-2838-8.0.0-RC1.jar"));
  });

  test("another release type is refused", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "spongeforgedl", releaseType: "nightly" })).rejects.toThrow(`releaseType must be "recommended" or "latest", not "nightly"`);
  });
});

describe("fabricdl", () => {
  test("downloads the first stable installer, skipping a newer unstable one", async () => {
    const t = fixtures.context();
    await run(t, { type: "fabricdl", targetFile: "fabric-installer.jar" });
    expect(readFileSync(join(t.root, "fabric-installer.jar"), "utf8")).toBe(fixture("fabric/fabric-installer-1.0.1.jar"));
    expect(fixtures.hits).not.toContain("/fabric/fabric-installer-1.0.2-beta.jar");
  });

  test("a target outside is refused before anything is fetched", async () => {
    const t = fixtures.context();
    const before = fixtures.hits.length;
    await expect(run(t, { type: "fabricdl", targetFile: "../../fabric.jar" })).rejects.toThrow("outside the server's folder");
    expect(fixtures.hits.length).toBe(before);
  });
});
