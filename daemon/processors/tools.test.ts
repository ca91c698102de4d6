// javadl and steamgamedl: tools unpacked once into the binaries folder and really run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { stepSchema } from "../../core/definition/steps";
import { runStep } from "./index";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

const run = (t: ReturnType<FixtureSources["context"]>, raw: unknown) => runStep(stepSchema.parse(raw), t.ctx);
const hitsOf = (suffix: string) => fixtures.hits.filter((h) => h.endsWith(suffix)).length;

describe("javadl", () => {
  test("unpacks the build into java17, links bin/java17 to it, and the link runs", async () => {
    const t = fixtures.context();
    await run(t, { type: "javadl", version: 17 });
    const link = join(t.binariesDir, "bin", "java17");
    expect(readlinkSync(link)).toBe("../java17/bin/java");
    expect(readFileSync(join(t.binariesDir, "java17", "release"), "utf8")).toBe('JAVA_VERSION="17.0.1"\n');
    // The build's own relative link between its files survives.
    expect(readFileSync(join(t.binariesDir, "java17", "legal/java.desktop/LICENSE"), "utf8")).toBe("stand-in for a license file\n");
    const java = Bun.spawnSync([link, "-version"]);
    expect(java.exitCode).toBe(0);
    expect(java.stdout.toString()).toContain('openjdk version "17.0.1"');
    expect(readdirSync(t.binariesDir).sort()).toEqual(["bin", "java17"]);
    expect(t.lines.some((l) => l.startsWith("downloading Java 17 from "))).toBe(true);
  });

  test("a second run finds it installed and downloads nothing", async () => {
    const t = fixtures.context();
    await run(t, { type: "javadl", version: "17" });
    const downloads = hitsOf("/OpenJDK17.tar.gz");
    await run(t, { type: "javadl", version: 17 });
    expect(hitsOf("/OpenJDK17.tar.gz")).toBe(downloads);
    expect(t.lines).toContain("Java 17 is already installed");
  });

  test("two servers installing at once share one download", async () => {
    const t = fixtures.context();
    const before = hitsOf("/OpenJDK17.tar.gz");
    await Promise.all([run(t, { type: "javadl", version: 17 }), run(t, { type: "javadl", version: 17 })]);
    expect(hitsOf("/OpenJDK17.tar.gz")).toBe(before + 1);
    expect(readlinkSync(join(t.binariesDir, "bin", "java17"))).toBe("../java17/bin/java");
  });

  test("a failed download leaves nothing in the binaries folder", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "javadl", version: 8 })).rejects.toThrow("the server answered HTTP 404");
    expect(readdirSync(t.binariesDir)).toEqual([]);
  });

  test("a build archive with an entry escaping its folder is refused, leaving nothing", async () => {
    const t = fixtures.context();
    // This node's Java 16 "build" is the evil one.
    t.ctx.sources = { ...t.ctx.sources, java: `${fixtures.base}/evil-java` };
    await expect(run(t, { type: "javadl", version: 16 })).rejects.toThrow("refused the Java 16 archive: entries would land outside its folder (../evil)");
    expect(readdirSync(t.binariesDir)).toEqual([]);
    expect(readdirSync(dirname(t.binariesDir))).toEqual(["binaries"]);
  });
});

describe("steamgamedl", () => {
  test("fetches SteamCMD once and installs the app into the server's folder with the server's own copy, on the host", async () => {
    const t = fixtures.context();
    await run(t, { type: "steamgamedl", appId: 896660 });
    expect(readFileSync(join(t.root, "steamapps/appmanifest_896660.acf"), "utf8")).toContain('"appid"\t\t"896660"');
    expect(t.executed).toEqual([
      { argv: ["sh", "-c", 'test -e "$2/steamcmd.sh" || cp -R "$1" "$2"', "sh", join(t.binariesDir, "steamcmd"), ".steamcmd"], host: true },
      {
        argv: [join(t.root, ".steamcmd/steamcmd.sh"), "+force_install_dir", t.root, "+login", "anonymous", "+app_update", "896660", "validate", "+quit"],
        host: true,
      },
    ]);
    // SteamCMD updates itself where it lies: in the server's copy, never in the node's shared one.
    expect(readFileSync(join(t.root, ".steamcmd/steamcmd.sh"), "utf8")).toBe(readFileSync(join(t.binariesDir, "steamcmd/steamcmd.sh"), "utf8"));
    const downloads = hitsOf("/steamcmd_linux.tar.gz");
    await run(t, { type: "steamgamedl", appId: "258550" });
    expect(existsSync(join(t.root, "steamapps/appmanifest_258550.acf"))).toBe(true);
    expect(hitsOf("/steamcmd_linux.tar.gz")).toBe(downloads);
  });

  test("a SteamCMD failure fails the step with its exit code", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "steamgamedl", appId: "666" })).rejects.toThrow("SteamCMD exited with code 8");
    expect(t.output()).toContain("No subscription");
  });

  test("an app id that is not a number is refused before anything runs", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "steamgamedl", appId: "4020 +quit" })).rejects.toThrow(`not a Steam app id: "4020 +quit"`);
    expect(t.executed).toEqual([]);
  });
});
