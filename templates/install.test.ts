// The shipped templates installed end to end with the daemon's own step processors and standard
// environment, against local stand-ins for every site they reach (test/helpers/step-sources.ts):
// install, then the pre-start steps, then the run command, then the template's way of stopping.
// The stand-ins leave what the real downloads and installers leave (the fixture "jars" and game
// programs are shell scripts that print how they were started), so each test checks that the
// server folder holds what the game needs and that the run command starts the right program,
// in the right folder, with the right arguments, reachable by the stop command or signal.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Template, Values } from "../core/definition";
import type { SourceUrls } from "../daemon/config";
import {
  BEDROCK_VERSION, FACTORIO_VERSION, FIXTURES, TSHOCK_RELEASE, startFixtureSources, type FixtureSources,
} from "../test/helpers/step-sources";
import { API_KEY as CURSEFORGE_KEY, startCurseForgeFixture, type CurseForgeFixture } from "../test/helpers/curseforge-fixture";
import { defaults, sandbox, shipped, start, stop, waitFor, type Sandbox } from "./test-sandbox";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

// A test that fails midway must not leave its server running.
const boxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(boxes.splice(0).map((b) => b.env.kill()));
});

const has = (...tools: string[]) => tools.every((tool) => Bun.which(tool) !== null);
const read = (path: string) => readFileSync(path, "utf8");
const fixture = (path: string) => read(join(FIXTURES, path));
const isExecutable = (path: string) => (statSync(path).mode & 0o111) !== 0;

/** The site a template downloads from, pointed at the fixture server. */
function siteValues(t: Template): Values {
  const site: Record<string, string> = {
    "minecraft-paper": fixtures.sites.papermc,
    "minecraft-purpur": fixtures.sites.purpur,
    velocity: fixtures.sites.papermc,
    "terraria-tshock": fixtures.sites.github,
    factorio: fixtures.sites.factorio,
    "minecraft-bedrock": fixtures.sites.bedrock,
  };
  if (t.name === "minecraft-quilt") return { metaBase: fixtures.sites.quiltMeta, mavenBase: fixtures.sites.quiltMaven };
  return site[t.name] ? { downloadBase: site[t.name]! } : {};
}

interface Server {
  t: Template;
  box: Sandbox;
  values: Values;
  /** Runs the install steps again with the same values (or others). */
  install(more?: Values): Promise<void>;
  /** Runs the pre-start steps. */
  pre(more?: Values): Promise<void>;
}

/** A fresh server of template `name`, installed with its defaults plus `more`. */
async function installed(name: string, more: Values = {}, sources?: SourceUrls, curseforgeKey?: string): Promise<Server> {
  const t = shipped(name);
  const box = sandbox(fixtures.tempDir("template"), sources ?? fixtures.sources, curseforgeKey);
  boxes.push(box);
  const server: Server = {
    t,
    box,
    values: { ...defaults(t, box.dir), ...siteValues(t), ...more },
    install: (again = {}) => box.steps(t.install, Object.assign(server.values, again)),
    pre: (again = {}) => box.steps(t.run.pre, Object.assign(server.values, again)),
  };
  await server.install();
  return server;
}

/**
 * Runs the pre-start steps with the server's values plus `more`, starts the server, waits for
 * `ready` in its output, stops it the template's way and expects a clean exit after `stopped`.
 * Returns the output of the pre-start steps and this run.
 */
async function runAndStop(server: Server, ready: RegExp, stopped: RegExp, more: Values = {}): Promise<string> {
  const { box, t } = server;
  const before = box.output().length;
  const since = () => box.output().slice(before);
  await server.pre(more);
  const { exited } = await start(box, t, server.values);
  await waitFor(since, ready);
  await stop(box, t);
  expect(await exited).toEqual({ code: 0, signal: null });
  expect(since()).toMatch(stopped);
  return since();
}

/** The bracketed argument list a fake game printed: "[a] [b c]" → ["a", "b c"]. */
function argsOf(output: string, program: string): { cwd: string; args: string[] } {
  const line = output.split("\n").find((l) => l.startsWith(`fake ${program} started in `));
  if (!line) throw new Error(`${program} did not start; output:\n${output}`);
  const match = /^fake \S+ started in (.*?) with:(.*)$/.exec(line)!;
  return { cwd: match[1]!, args: [...match[2]!.matchAll(/ \[([^\]]*)\]/g)].map((m) => m[1]!) };
}

const javaLink = (s: Server, version: number) => readlinkSync(join(s.box.bin, `java${version}`));

// ---- Minecraft: Java Edition ----

describe("minecraft-vanilla", () => {
  test("installs Java 17 and the server jar of its default version, and starts it once the EULA is accepted", async () => {
    const s = await installed("minecraft-vanilla");
    expect(javaLink(s, 17)).toBe("../java17/bin/java");
    expect(read(join(s.box.dir, "server.jar"))).toBe(fixture("mojang/server-1.20.4.jar"));
    expect(read(join(s.box.dir, "server.properties"))).toBe("");

    // As it comes, the EULA is not accepted: Minecraft refuses to start.
    await s.pre();
    const { exited } = await start(s.box, s.t, s.values);
    expect((await exited).code).toBe(1);
    expect(s.box.output()).toContain("You need to agree to the EULA");

    const out = await runAndStop(s, /Done!/, /Stopping the server/, { eula: true });
    expect(out).toContain("fixture java 17.0.1: -Xms2048M -Xmx2048M -jar server.jar");
    expect(out).toContain("Minecraft 1.20.4 server (Kiln test fixture) starting with: nogui");
    expect(read(join(s.box.dir, "server.properties")).split("\n").sort()).toEqual(["", "motd=A Minecraft server on Kiln", "server-port=25565"]);
  });
});

describe("minecraft-purpur", () => {
  test("downloads the latest build with a verified MD5 and starts it with Java 21", async () => {
    const s = await installed("minecraft-purpur", { eula: true, memory: 3000 });
    expect(javaLink(s, 21)).toBe("../java21/bin/java");
    expect(read(join(s.box.dir, "purpur.jar"))).toStartWith("#!/bin/sh\necho \"purpur 1.21.1 build 2329 ");
    expect(s.box.output()).toContain("Checksum verified");
    expect(readdirSync(s.box.dir).sort()).toEqual(["plugins", "purpur.jar", "server.properties"]);
    expect(fixtures.hits).toContain("/purpur/v2/purpur/1.21.1/latest");
    expect(fixtures.hits).toContain("/purpur/v2/purpur/1.21.1/2329/download");
    const out = await runAndStop(s, /Kiln test fixture/, /saved and stopped/);
    expect(out).toContain("fixture java 21.0.5: -Xms3000M -Xmx3000M -jar purpur.jar");
    expect(out).toContain(`purpur 1.21.1 build 2329 (Kiln test fixture) starting in ${s.box.dir} with: --nogui`);
  });

  test("a pinned build is taken as it is; a jar that is not the one whose MD5 Purpur lists, an unknown version and a bad build fail and leave the jar alone", async () => {
    const s = await installed("minecraft-purpur", { build: "2327" });
    const jar = read(join(s.box.dir, "purpur.jar"));
    expect(jar).toContain("purpur 1.21.1 build 2327 ");
    await expect(s.install({ build: "2328" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("Purpur 1.21.1 build 2328 does not have the MD5 checksum Purpur lists");
    await expect(s.install({ version: "9.9", build: "latest" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("Purpur has no build for Minecraft 9.9");
    for (const build of ["2327; id", "../2327", "$(id)"]) {
      await expect(s.install({ build })).rejects.toThrow("exited with code 1");
      expect(s.box.output()).toContain("the build must be a number");
    }
    await expect(s.install({ version: "1.21.1/../1.20.4", build: "latest" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("is not a Minecraft version");
    expect(read(join(s.box.dir, "purpur.jar"))).toBe(jar);
  });
});

describe("minecraft-paper", () => {
  test("downloads the newest stable build with a verified checksum and starts it", async () => {
    const s = await installed("minecraft-paper", { eula: true, memory: 3000 });
    expect(javaLink(s, 17)).toBe("../java17/bin/java");
    expect(read(join(s.box.dir, "paper.jar"))).toStartWith("#!/bin/sh\necho \"paper 1.20.4 build 497 ");
    expect(s.box.output()).toContain("Checksum verified");
    expect(readdirSync(s.box.dir).sort()).toEqual(["paper.jar", "plugins", "server.properties"]);
    expect(fixtures.hits).toContain("/papermc/v3/projects/paper/versions/1.20.4/builds/latest");

    const out = await runAndStop(s, /Kiln test fixture/, /saved and stopped/);
    expect(out).toContain("fixture java 17.0.1: -Xms3000M -Xmx3000M -jar paper.jar");
    expect(out).toContain(`paper 1.20.4 build 497 (Kiln test fixture) starting in ${s.box.dir} with: --nogui`);
    expect(read(join(s.box.dir, "eula.txt"))).toBe("eula=true\n");
  });

  test("a pinned build is taken as it is; latest is the build PaperMC names (here a version with alpha builds only)", async () => {
    const pinned = await installed("minecraft-paper", { build: "496" });
    expect(read(join(pinned.box.dir, "paper.jar"))).toContain("paper 1.20.4 build 496 ");
    await pinned.install({ version: "1.21", build: "latest" });
    expect(read(join(pinned.box.dir, "paper.jar"))).toContain("paper 1.21 build 5 ");
  });

  test("PaperMC's real answer for a build is read for its file, checksum and address: a jar that is not that file is refused", async () => {
    const s = await installed("minecraft-paper");
    const jar = read(join(s.box.dir, "paper.jar"));
    await expect(s.install({ version: "1.21.8", build: "60" })).rejects.toThrow("exited with code 1");
    expect(fixtures.hits).toContain("/papermc-data/v1/objects/8de7c52c3b02403503d16fac58003f1efef7dd7a0256786843927fa92ee57f1e/paper-1.21.8-60.jar");
    expect(s.box.output()).toContain("Downloading paper-1.21.8-60.jar (build 60)");
    expect(s.box.output()).toContain("paper-1.21.8-60.jar does not have the SHA-256 checksum PaperMC lists (8de7c52c3b02403503d16fac58003f1efef7dd7a0256786843927fa92ee57f1e)");
    expect(read(join(s.box.dir, "paper.jar"))).toBe(jar);
  });

  test("a download whose checksum differs, an unknown version and a bad build fail and leave the jar alone", async () => {
    const s = await installed("minecraft-paper");
    const jar = read(join(s.box.dir, "paper.jar"));
    await expect(s.install({ build: "490" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("paper-1.20.4-490.jar does not have the SHA-256 checksum PaperMC lists");
    await expect(s.install({ version: "9.9", build: "latest" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("PaperMC has no paper 9.9");
    await expect(s.install({ version: "1.20.4", build: "497; rm -rf /" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain('the build must be a number or "latest"');
    expect(read(join(s.box.dir, "paper.jar"))).toBe(jar);
    expect(readdirSync(s.box.dir).filter((f) => f.includes(".part"))).toEqual([]);
  });
});

describe("velocity", () => {
  test("downloads the newest Velocity build and starts it on the port from the settings", async () => {
    const s = await installed("velocity", { port: 25600 });
    expect(read(join(s.box.dir, "velocity.jar"))).toContain("velocity 3.3.0-SNAPSHOT build 436 ");
    expect(readdirSync(s.box.dir).sort()).toEqual(["plugins", "velocity.jar"]);
    const out = await runAndStop(s, /Kiln test fixture/, /saved and stopped/);
    expect(out).toContain("fixture java 17.0.1: -Xms512M -Xmx512M -jar velocity.jar");
    expect(out).toContain("with: --port 25600");
  });
});

describe("minecraft-fabric", () => {
  test("runs the stable Fabric installer for its Minecraft version and starts Fabric's launcher", async () => {
    const s = await installed("minecraft-fabric", { eula: true });
    expect(read(join(s.box.dir, "fabric-installer.jar"))).toBe(fixture("fabric/fabric-installer-1.0.1.jar"));
    expect(read(join(s.box.dir, "server.jar"))).toBe("stand-in for the Minecraft 1.20.4 server jar\n");
    expect(existsSync(join(s.box.dir, "mods"))).toBe(true);
    const out = await runAndStop(s, /Fabric Loader/, /Stopping the server/);
    expect(out).toContain("fixture java 17.0.1: -Xms3072M -Xmx3072M -jar fabric-server-launch.jar");
    expect(out).toContain("Fabric Loader (installer 1.0.1) for Minecraft 1.20.4 starting with: nogui");
  });

  test("a Fabric loader written in its variable is the one installed; a value with spaces and shell syntax reaches the installer as one argument", async () => {
    const s = await installed("minecraft-fabric", { eula: true, loader: "0.14.12" });
    expect(existsSync(join(s.box.dir, "libraries/net/fabricmc/fabric-loader/0.14.12/fabric-loader-0.14.12.jar"))).toBe(true);
    expect(await runAndStop(s, /Fabric Loader/, /Stopping the server/)).toContain("Fabric Loader 0.14.12 (installer 1.0.1) for Minecraft 1.20.4");
    await s.install({ loader: "0.1 $(touch pwned) ;touch pwned2" });
    expect(existsSync(join(s.box.dir, "libraries/net/fabricmc/fabric-loader/0.1 $(touch pwned) ;touch pwned2"))).toBe(true);
    expect(readdirSync(s.box.dir).filter((f) => f.startsWith("pwned"))).toEqual([]);
  });
});

describe("minecraft-quilt", () => {
  test("runs Quilt's newest installer, checked by the SHA-256 beside it, for its Minecraft version, and starts Quilt's launcher with Java 21", async () => {
    const s = await installed("minecraft-quilt", { eula: true });
    expect(javaLink(s, 21)).toBe("../java21/bin/java");
    expect(s.box.output()).toContain("Checksum verified");
    expect(fixtures.hits).toContain("/quilt-maven/repository/release/org/quiltmc/quilt-installer/0.9.2/quilt-installer-0.9.2.jar.sha256");
    expect(read(join(s.box.dir, "server.jar"))).toBe("stand-in for the Minecraft 1.21.1 server jar\n");
    expect(existsSync(join(s.box.dir, "libraries/org/quiltmc/quilt-loader/0.26.4/quilt-loader-0.26.4.jar"))).toBe(true);
    expect(existsSync(join(s.box.dir, "quilt-installer.jar"))).toBe(false);
    expect(existsSync(join(s.box.dir, "kiln-quilt.sh"))).toBe(false);
    const out = await runAndStop(s, /Quilt Loader/, /Stopping the server/);
    expect(out).toContain("fixture java 21.0.5: -Xms3072M -Xmx3072M -jar quilt-server-launch.jar");
    expect(out).toContain("Quilt Loader 0.26.4 for Minecraft 1.21.1 starting with: nogui");
  });

  test("a loader written in its variable is the one installed, as one argument whatever it holds", async () => {
    const s = await installed("minecraft-quilt", { eula: true, loader: "0.25.0" });
    expect(existsSync(join(s.box.dir, "libraries/org/quiltmc/quilt-loader/0.25.0/quilt-loader-0.25.0.jar"))).toBe(true);
    await s.install({ loader: "0.1 $(touch pwned) ;touch pwned2" });
    expect(existsSync(join(s.box.dir, "libraries/org/quiltmc/quilt-loader/0.1 $(touch pwned) ;touch pwned2"))).toBe(true);
    expect(readdirSync(s.box.dir).filter((f) => f.startsWith("pwned"))).toEqual([]);
  });

  test("an installer named outside Quilt's Maven, or one whose checksum does not match, is not installed", async () => {
    const s = await installed("minecraft-quilt", { eula: true });
    await expect(s.install({ mavenBase: "https://maven.example.org" })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("outside Quilt's Maven repository");
    await expect(s.install({ mavenBase: fixtures.sites.quiltMaven, metaBase: `${fixtures.sites.quiltMeta}/stale` })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("does not have the SHA-256 checksum Quilt's Maven lists");
    expect(existsSync(join(s.box.dir, "quilt-installer.jar"))).toBe(false);
    await expect(s.install({ metaBase: `${fixtures.sites.quiltMeta}/missing` })).rejects.toThrow("exited with code 1");
    expect(s.box.output()).toContain("Quilt's meta did not list its installers");
  });
});

describe("minecraft-forge", () => {
  test("installs Forge's recommended build and starts it from the argument file run.sh names", async () => {
    const s = await installed("minecraft-forge", { eula: true });
    const args = "libraries/net/minecraftforge/forge/1.20.1-47.1.0/unix_args.txt";
    for (const file of ["forge-installer.jar", "run.sh", "user_jvm_args.txt", args, "server.properties", "mods"]) expect(existsSync(join(s.box.dir, file)), file).toBe(true);
    // The user's JVM flags come first, so Kiln's memory setting wins.
    writeFileSync(join(s.box.dir, "user_jvm_args.txt"), "# mine\n-Xmx1G\n-XX:+UseG1GC\n");
    const out = await runAndStop(s, /fixture java: arguments/, /fixture java: stopped/);
    expect(out).toContain("fixture java 17.0.1: -Xmx1G -XX:+UseG1GC -Xms4096M -Xmx4096M -DlibraryDirectory=libraries");
    expect(out).toContain("fixture java: main class cpw.mods.bootstraplauncher.BootstrapLauncher");
    expect(out).toContain("fixture java: arguments --launchTarget forgeserver --fml.forgeVersion 47.1.0 --fml.mcVersion 1.20.1 nogui");
  });

  test("installing another version switches to it: the run command follows run.sh, not what is lying around", async () => {
    const s = await installed("minecraft-forge", { eula: true, version: "1.19.2" });
    await s.install({ version: "1.20.1-47.1.0" });
    expect(existsSync(join(s.box.dir, "libraries/net/minecraftforge/forge/1.19.2-43.2.0/unix_args.txt"))).toBe(true);
    const out = await runAndStop(s, /fixture java: arguments/, /fixture java: stopped/);
    expect(out).toContain("--fml.forgeVersion 47.1.0 --fml.mcVersion 1.20.1 nogui");
  });

  test("Forge version latest takes Forge's newest build; a build written in it is the one installed", async () => {
    const latest = await installed("minecraft-forge", { eula: true, forge: "latest" });
    expect(existsSync(join(latest.box.dir, "libraries/net/minecraftforge/forge/1.20.1-47.1.3/unix_args.txt"))).toBe(true);
    const pinned = await installed("minecraft-forge", { eula: true, forge: "47.1.0" });
    expect(existsSync(join(pinned.box.dir, "libraries/net/minecraftforge/forge/1.20.1-47.1.0/unix_args.txt"))).toBe(true);
    expect(existsSync(join(pinned.box.dir, "libraries/net/minecraftforge/forge/1.20.1-47.1.3"))).toBe(false);
  });

  test("a Forge version that is a path or shell syntax fails the install before anything is fetched from Forge", async () => {
    for (const forge of ["../../neoforge/x", "47.1.0; id", "$(id)"]) {
      const asked = fixtures.hits.length;
      await expect(installed("minecraft-forge", { eula: true, forge })).rejects.toThrow("is not a version");
      expect(fixtures.hits.slice(asked).filter((hit) => hit.startsWith("/forge/"))).toEqual([]);
    }
  });

  test("a Forge that leaves a universal jar (1.16 and older) is started from that jar", async () => {
    const s = await installed("minecraft-forge", { eula: true, version: "1.12.2-14.23.5.2860" });
    expect(existsSync(join(s.box.dir, "run.sh"))).toBe(false);
    const out = await runAndStop(s, /Forge 14.23.5.2860/, /Stopping the server/);
    expect(out).toContain("fixture java 17.0.1: -Xms4096M -Xmx4096M -jar forge-1.12.2-14.23.5.2860.jar");
  });
});

describe("minecraft-neoforge", () => {
  test("installs NeoForge's newest build for its Minecraft version from the Maven listing and starts it from the argument file run.sh names", async () => {
    const s = await installed("minecraft-neoforge", { eula: true });
    const args = "libraries/net/neoforged/neoforge/21.1.226/unix_args.txt";
    for (const file of ["run.sh", "user_jvm_args.txt", args, "server.properties", "mods"]) expect(existsSync(join(s.box.dir, file)), file).toBe(true);
    expect(existsSync(join(s.box.dir, "neoforge-installer.jar"))).toBe(false);
    expect(javaLink(s, 21)).toBe("../java21/bin/java");
    const out = await runAndStop(s, /fixture java: arguments/, /fixture java: stopped/);
    expect(out).toContain("fixture java 21.0.5: -Xms4096M -Xmx4096M -DlibraryDirectory=libraries");
    expect(out).toContain("fixture java: arguments --launchTarget forgeserver --fml.neoForgeVersion 21.1.226 nogui");
  });

  test("a NeoForge version written in its variable is the one installed; another Minecraft version takes its own newest", async () => {
    const pinned = await installed("minecraft-neoforge", { eula: true, neoforge: "21.1.225" });
    expect(existsSync(join(pinned.box.dir, "libraries/net/neoforged/neoforge/21.1.225/unix_args.txt"))).toBe(true);
    const older = await installed("minecraft-neoforge", { eula: true, version: "1.20.4" });
    expect(existsSync(join(older.box.dir, "libraries/net/neoforged/neoforge/20.4.251/unix_args.txt"))).toBe(true);
  });

  test("a NeoForge version that is a path or shell syntax fails the install before anything is fetched", async () => {
    for (const neoforge of ["../../forge/x", "21.1.226; id", "$(id)"]) {
      const asked = fixtures.hits.length;
      await expect(installed("minecraft-neoforge", { eula: true, neoforge })).rejects.toThrow("is not a version");
      expect(fixtures.hits.slice(asked).filter((hit) => hit.startsWith("/neoforge/"))).toEqual([]);
    }
  });
});

describe("minecraft-curseforge", () => {
  let curse: CurseForgeFixture;
  beforeAll(() => void (curse = startCurseForgeFixture()));
  afterAll(() => curse.stop());
  const packSources = (): SourceUrls => ({ ...fixtures.sources, curseforge: curse.sources.curseforge, neoforge: curse.sources.neoforge, fabric: curse.sources.fabric });

  test("installs a Forge pack's server pack and starts Forge from the argument file its installer wrote", async () => {
    const s = await installed("minecraft-curseforge", { eula: true, projectId: "100", fileId: "1001", java: "17" }, packSources(), CURSEFORGE_KEY);
    for (const file of ["mods/pack-mod.jar", "config/pack.cfg", "libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt", "server.properties"]) expect(existsSync(join(s.box.dir, file)), file).toBe(true);
    expect(javaLink(s, 17)).toBe("../java17/bin/java");
    const out = await runAndStop(s, /fixture java: arguments/, /fixture java: stopped/);
    expect(out).toContain("fixture java 17.0.1: -Xms4096M -Xmx4096M -Dfixture.forge=1.20.1-47.2.0");
    expect(out).toContain("fixture java: main class net.minecraftforge.bootstrap.ForgeBootstrap");
    expect(read(join(s.box.dir, "eula.txt"))).toBe("eula=true\n");
  });

  test("a Fabric pack starts from the launcher that became server.jar", async () => {
    const s = await installed("minecraft-curseforge", { eula: true, projectId: "200", fileId: "2001", java: "17" }, packSources(), CURSEFORGE_KEY);
    expect(read(join(s.box.dir, "mods/fabric-mod.jar"))).toBe("a fabric mod");
    const out = await runAndStop(s, /fabric launcher 1.20.1/, /fabric launcher/);
    expect(out).toContain("fixture java 17.0.1: -Xms4096M -Xmx4096M -jar server.jar");
  });

  test("a folder with no server yet says to install first", async () => {
    const s = await installed("minecraft-curseforge", { eula: true, projectId: "100", fileId: "1001", java: "17" }, packSources(), CURSEFORGE_KEY);
    for (const gone of ["libraries"]) rmSync(join(s.box.dir, gone), { recursive: true });
    await s.pre();
    const { exited } = await start(s.box, s.t, s.values);
    expect((await exited).code).toBe(1);
    expect(s.box.output()).toContain("No modpack server here: install first.");
  });
});

describe("minecraft-sponge", () => {
  const javaWith8 = (): SourceUrls => ({ ...fixtures.sources, java: fixtures.sites.javaWith8 });

  test("installs Java 8, SpongeForge in mods/ and the Forge it was made for, and starts Forge on Java 8", async () => {
    const s = await installed("minecraft-sponge", { eula: true }, javaWith8());
    expect(javaLink(s, 8)).toBe("../java8/bin/java");
    expect(readdirSync(join(s.box.dir, "mods"))).toEqual(["spongeforge-1.12.2-2860-7.4.8.jar"]);
    expect(readdirSync(s.box.dir).filter((f) => f.startsWith("forge-"))).toEqual(["forge-1.12.2-14.23.5.2860.jar", "forge-installer.jar"]);
    expect(existsSync(join(s.box.dir, "minecraft_server.1.12.2.jar"))).toBe(true);
    const out = await runAndStop(s, /Forge 14.23.5.2860/, /Stopping the server/);
    expect(out).toContain("fixture java 1.8.0_392: -Xms3072M -Xmx3072M -jar forge-1.12.2-14.23.5.2860.jar");
    expect(out).toContain("mods: spongeforge-1.12.2-2860-7.4.8.jar");
  });

  test("installing the other channel replaces SpongeForge and Forge and keeps other mods", async () => {
    const s = await installed("minecraft-sponge", { eula: true }, javaWith8());
    writeFileSync(join(s.box.dir, "mods", "other-mod.jar"), "a mod");
    await s.install({ channel: "latest" });
    expect(readdirSync(join(s.box.dir, "mods")).sort()).toEqual(["other-mod.jar", "spongeforge-1.12.2-2838-8.0.0-RC1.jar"]);
    const out = await runAndStop(s, /Forge 14.23.5.2838/, /Stopping the server/);
    expect(out).toContain("-jar forge-1.12.2-14.23.5.2838.jar");
  });
});

// ---- Other downloads ----

describe.skipIf(!has("curl", "unzip"))("minecraft-bedrock", () => {
  test("does not download before the EULA is accepted", async () => {
    const before = fixtures.hits.length;
    await expect(installed("minecraft-bedrock")).rejects.toThrow("exited with code 1");
    expect(fixtures.hits.slice(before).filter((h) => h.startsWith("/bedrock/"))).toEqual([]);
  });

  test("unpacks the server, keeps the settings on an update, and starts it with its libraries found", async () => {
    const s = await installed("minecraft-bedrock", { eula: true, serverName: "Bob's place", port: 19200 });
    expect(fixtures.hits).toContain(`/bedrock/bin-linux/bedrock-server-${BEDROCK_VERSION}.zip`);
    expect(isExecutable(join(s.box.dir, "bedrock_server"))).toBe(true);
    expect(readdirSync(s.box.dir).sort()).toEqual(["allowlist.json", "bedrock_server", "bedrock_server_how_to.html", "permissions.json", "server.properties"]);

    await s.pre();
    expect(read(join(s.box.dir, "server.properties"))).toBe("server-name=Bob's place\ngamemode=survival\ndifficulty=easy\nserver-port=19200\nserver-portv6=19133\nlevel-name=Bedrock level\n");
    writeFileSync(join(s.box.dir, "permissions.json"), '[{"permission":"operator","xuid":"1"}]\n');
    writeFileSync(join(s.box.dir, "bedrock_server"), "broken");
    await s.install();
    expect(read(join(s.box.dir, "permissions.json"))).toBe('[{"permission":"operator","xuid":"1"}]\n');
    expect(read(join(s.box.dir, "server.properties"))).toContain("server-name=Bob's place\n");
    expect(read(join(s.box.dir, "bedrock_server"))).toStartWith("#!/bin/sh");
    expect(existsSync(join(s.box.dir, "bedrock-server.zip"))).toBe(false);

    const out = await runAndStop(s, /Kiln test fixture/, /saved and stopped/);
    expect(out).toContain(`Bedrock server ${BEDROCK_VERSION} (Kiln test fixture) starting in ${s.box.dir}`);
    expect(out).toContain(`LD_LIBRARY_PATH=${s.box.dir}`);
  });
});

describe.skipIf(!has("unzip", "tar"))("terraria-tshock", () => {
  test("unpacks the release's zip and the tar inside it, and starts TShock on its world, creating it", async () => {
    const s = await installed("terraria-tshock", { world: "My World", worldSize: "3" });
    expect(fixtures.hits).toContain(`/github/Pryaxis/TShock/releases/download/${TSHOCK_RELEASE.tag}/${TSHOCK_RELEASE.asset}`);
    expect(readdirSync(s.box.dir).sort()).toEqual(["ServerPlugins", "TShock.Server", "bin", "worlds"]);
    expect(isExecutable(join(s.box.dir, "TShock.Server"))).toBe(true);
    const out = await runAndStop(s, /Created world/, /saved and stopped/);
    expect(out).toContain(`-port 7777 -maxplayers 8 -world ${s.box.dir}/worlds/My World.wld -autocreate 3 -worldname My World`);
    expect(read(join(s.box.dir, "worlds/My World.wld"))).toBe("world of size 3\n");
  });
});

describe.skipIf(!has("tar", "xz"))("factorio", () => {
  test("unpacks the headless build, keeps the game unlisted, makes a map at the first start and saves on /quit", async () => {
    const s = await installed("factorio");
    expect(fixtures.hits).toContain("/factorio/get-download/stable/headless/linux64");
    expect(fixtures.hits).toContain(`/factorio/download/factorio-headless_linux_${FACTORIO_VERSION}.tar.xz`);
    expect(readdirSync(s.box.dir).sort()).toEqual(["bin", "config-path.cfg", "data", "saves", "server-settings.json"]);
    expect(JSON.parse(read(join(s.box.dir, "server-settings.json"))).visibility).toEqual({ public: false, lan: true });

    const out = await runAndStop(s, /Factorio .* --start-server/, /Quitting: saved saves\/world.zip/);
    expect(out).toContain("--create saves/world.zip");
    expect(out).toContain("with: --port 34197 --start-server saves/world.zip --server-settings server-settings.json");

    // The map and the settings survive another start and an update.
    writeFileSync(join(s.box.dir, "saves/world.zip"), "played for hours");
    writeFileSync(join(s.box.dir, "server-settings.json"), '{"name": "mine"}\n');
    await s.install({ version: FACTORIO_VERSION });
    await s.pre();
    expect(read(join(s.box.dir, "saves/world.zip"))).toBe("played for hours");
    expect(read(join(s.box.dir, "server-settings.json"))).toBe('{"name": "mine"}\n');
  });
});

// ---- SteamCMD games (the fixture SteamCMD writes a stand-in for each server program) ----

describe("SteamCMD games", () => {
  test("counter-strike-2: cs2 from its own folder, game mode and map as set, the login token only when there is one", async () => {
    const s = await installed("counter-strike-2");
    expect(existsSync(join(s.box.dir, "steamapps/appmanifest_730.acf"))).toBe(true);
    const out = await runAndStop(s, /fake .*cs2 started/, /saved and stopped on "quit"/);
    const { cwd, args } = argsOf(out, "game/bin/linuxsteamrt64/cs2");
    expect(cwd).toBe(join(s.box.dir, "game/bin/linuxsteamrt64"));
    expect(args).toEqual(["-dedicated", "-port", "27015", "-maxplayers", "16", "+game_type", "0", "+game_mode", "0", "+map", "de_dust2"]);

    const out2 = await runAndStop(s, /fake .*cs2 started/, /saved and stopped/, { gslt: "0123ABCD", mode: "+game_type 0 +game_mode 1", map: "de_mirage" });
    expect(argsOf(out2, "game/bin/linuxsteamrt64/cs2").args.slice(5)).toEqual(["+game_type", "0", "+game_mode", "1", "+map", "de_mirage", "+sv_setsteamaccount", "0123ABCD"]);
  });

  test("garrys-mod: srcds_run with the gamemode and map, and the workshop collection only when there is one", async () => {
    const s = await installed("garrys-mod");
    const out = await runAndStop(s, /fake srcds_run started/, /saved and stopped on "quit"/);
    expect(argsOf(out, "srcds_run").args).toEqual(["-game", "garrysmod", "-console", "-norestart", "-port", "27015", "+maxplayers", "16", "+gamemode", "sandbox", "+map", "gm_construct"]);
    const out2 = await runAndStop(s, /fake srcds_run started/, /saved and stopped/, { workshopCollection: "123456", gamemode: "terrortown" });
    expect(argsOf(out2, "srcds_run").args.slice(8)).toEqual(["+gamemode", "terrortown", "+map", "gm_construct", "+host_workshop_collection", "123456"]);
  });

  test("team-fortress-2: srcds_run for tf on its map", async () => {
    const s = await installed("team-fortress-2");
    expect(existsSync(join(s.box.dir, "steamapps/appmanifest_232250.acf"))).toBe(true);
    const out = await runAndStop(s, /fake srcds_run started/, /saved and stopped on "quit"/);
    expect(argsOf(out, "srcds_run").args).toEqual(["-game", "tf", "-console", "-norestart", "-strictportbind", "-port", "27015", "-maxplayers", "24", "+map", "cp_badlands"]);
  });

  test("rust: RustDedicated with its libraries on the path, names with spaces kept whole, stopped by SIGINT", async () => {
    const s = await installed("rust", { rconPassword: "s3cret pass" });
    const out = await runAndStop(s, /fake RustDedicated started/, /saved and stopped on SIGINT/);
    const { args } = argsOf(out, "RustDedicated");
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after("+server.hostname")).toBe("Rust on Kiln");
    expect(after("+server.level")).toBe("Procedural Map");
    expect(after("+server.identity")).toBe("kiln");
    expect(after("+rcon.password")).toBe("s3cret pass");
    expect(after("+server.port")).toBe("28015");
    expect(out).toContain(`LD_LIBRARY_PATH=${s.box.dir}:${s.box.dir}/RustDedicated_Data/Plugins:${s.box.dir}/RustDedicated_Data/Plugins/x86_64`);
  });

  test("ark-survival-evolved: the map and its options as one argument, stopped by SIGINT", async () => {
    const s = await installed("ark-survival-evolved", { adminPassword: "hunter2" });
    const out = await runAndStop(s, /fake .*ShooterGameServer started/, /saved and stopped on SIGINT/);
    expect(argsOf(out, "ShooterGame/Binaries/Linux/ShooterGameServer").args).toEqual([
      "TheIsland?listen?SessionName=ARK on Kiln?ServerAdminPassword=hunter2?Port=7777?QueryPort=27015?MaxPlayers=70?RCONEnabled=True?RCONPort=27020",
      "-server", "-log",
    ]);
  });

  test("project-zomboid: start-server.sh with the server name and admin password, stopped by quit", async () => {
    const s = await installed("project-zomboid", { adminPassword: "pass word" });
    const out = await runAndStop(s, /fake start-server.sh started/, /saved and stopped on "quit"/);
    expect(argsOf(out, "start-server.sh").args).toEqual(["-servername", "servertest", "-adminpassword", "pass word"]);
  });

  test("7-days-to-die: its own copy of serverconfig.xml, kept across updates and given the name and port at start", async () => {
    const s = await installed("7-days-to-die", { serverName: "Zombie Town", port: 26950 });
    const copy = join(s.box.dir, "kiln-serverconfig.xml");
    expect(read(copy)).toBe(read(join(s.box.dir, "serverconfig.xml")));
    await s.pre();
    expect(read(copy)).toContain('<property name="ServerName"			value="Zombie Town"/>');
    expect(read(copy)).toContain('<property name="ServerPort"			value="26950"/>');
    expect(read(copy)).toContain('<property name="TelnetPort"			value="8081"/>');
    // An update restores the game's own file; the copy keeps the user's edits.
    writeFileSync(copy, read(copy).replace('value="8081"', 'value="8082"'));
    await s.install();
    expect(read(copy)).toContain('value="8082"');
    expect(read(join(s.box.dir, "serverconfig.xml"))).toContain('value="My Game Host"');

    const out = await runAndStop(s, /fake 7DaysToDieServer.x86_64 started/, /saved and stopped on SIGINT/);
    expect(argsOf(out, "7DaysToDieServer.x86_64").args).toEqual(["-logfile", "/dev/stdout", "-quit", "-batchmode", "-nographics", "-dedicated", "-configfile=kiln-serverconfig.xml"]);
    expect(out).toContain(`LD_LIBRARY_PATH=${s.box.dir}`);
  });

  test("satisfactory: the server program itself, so that SIGINT reaches it", async () => {
    const s = await installed("satisfactory", { port: 7800 });
    const out = await runAndStop(s, /fake .*FactoryServer-Linux-Shipping started/, /saved and stopped on SIGINT/);
    expect(argsOf(out, "Engine/Binaries/Linux/FactoryServer-Linux-Shipping").args).toEqual(["FactoryGame", "-Port=7800", "-ReliablePort=8888", "-log", "-unattended"]);
  });

  test("palworld: steamclient.so and the settings file put where PalServer.sh would, the program started directly", async () => {
    const s = await installed("palworld");
    const settings = join(s.box.dir, "Pal/Saved/Config/LinuxServer/PalWorldSettings.ini");
    expect(read(join(s.box.dir, "Pal/Binaries/Linux/steamclient.so"))).toBe("stand-in for steamclient.so\n");
    expect(read(settings)).toBe(read(join(s.box.dir, "DefaultPalWorldSettings.ini")));
    writeFileSync(settings, "[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(ServerName=\"Mine\")\n");
    await s.install();
    expect(read(settings)).toContain('ServerName="Mine"');

    const out = await runAndStop(s, /fake .*PalServer-Linux-Shipping started/, /saved and stopped on SIGINT/);
    expect(argsOf(out, "Pal/Binaries/Linux/PalServer-Linux-Shipping").args).toEqual(["Pal", "-port=8211", "-players=32", "-useperfthreads", "-NoAsyncLoadingThread", "-UseMultithreadForDS"]);
    const listed = await runAndStop(s, /PalServer-Linux-Shipping started/, /saved and stopped/, { community: "-publiclobby" });
    expect(argsOf(listed, "Pal/Binaries/Linux/PalServer-Linux-Shipping").args).toContain("-publiclobby");
  });

  test("dont-starve-together: a one-shard cluster written once, its settings and token applied at start, saved by c_shutdown(true)", async () => {
    const s = await installed("dont-starve-together");
    const cluster = join(s.box.dir, "DoNotStarveTogether/Cluster_1");
    expect(read(join(cluster, "cluster.ini"))).toContain("[SHARD]\nshard_enabled = false\n");
    expect(read(join(cluster, "Master/server.ini"))).toBe("[NETWORK]\nserver_port = 10999\n\n[SHARD]\nis_master = true\n");
    writeFileSync(join(cluster, "cluster.ini"), read(join(cluster, "cluster.ini")).replace("pvp = false", "pvp = true"));
    await s.install();
    expect(read(join(cluster, "cluster.ini"))).toContain("pvp = true");

    await s.pre({ token: "pds-g^KU_abc", serverName: "Wilson's camp", password: "", maxPlayers: 4, gameMode: "endless", port: 11000 });
    expect(read(join(cluster, "cluster_token.txt"))).toBe("pds-g^KU_abc");
    const ini = read(join(cluster, "cluster.ini"));
    for (const line of ["cluster_name = Wilson's camp", "cluster_password = ", "max_players = 4", "game_mode = endless", "pvp = true"]) expect(ini).toContain(`${line}\n`);
    expect(read(join(cluster, "Master/server.ini"))).toContain("server_port = 11000\n");

    const out = await runAndStop(s, /fake .*nullrenderer_x64 started/, /saved and stopped on "c_shutdown\(true\)"/);
    const { cwd, args } = argsOf(out, "bin64/dontstarve_dedicated_server_nullrenderer_x64");
    expect(cwd).toBe(join(s.box.dir, "bin64"));
    expect(args).toEqual(["-console", "-persistent_storage_root", s.box.dir, "-conf_dir", "DoNotStarveTogether", "-cluster", "Cluster_1", "-shard", "Master"]);
  });

  test("valheim: the server program with its settings, stopped by SIGINT", async () => {
    const s = await installed("valheim", { password: "secret1" });
    const out = await runAndStop(s, /fake valheim_server.x86_64 started/, /saved and stopped on SIGINT/);
    expect(argsOf(out, "valheim_server.x86_64").args).toEqual([
      "-nographics", "-batchmode", "-name", "Valheim on Kiln", "-port", "2456", "-world", "Dedicated", "-password", "secret1", "-public", "0", "-savedir", `${s.box.dir}/saves`,
    ]);
    expect(out).toContain(`LD_LIBRARY_PATH=${s.box.dir}/linux64`);
  });
});

// ---- Your own program ----

describe("java-app", () => {
  test("installs Java 17 and runs the uploaded jar with its options, PORT set, and SIGTERM reaching it", async () => {
    // Options are split at spaces only: quotes and $(…) stay plain characters of their words.
    const s = await installed("java-app", { jvmArgs: "-Dapp.mode=prod -Xss1M", args: `--name "two words" $(touch pwned) --verbose`, port: 8123 });
    expect(javaLink(s, 17)).toBe("../java17/bin/java");
    writeFileSync(join(s.box.dir, "app.jar"), [
      "#!/bin/sh",
      'trap \'echo "shutdown hooks ran"; exit 0\' TERM',
      'printf "app args:"; for a in "$@"; do printf " [%s]" "$a"; done; echo',
      'echo "app port $PORT"',
      "while :; do sleep 0.05; done",
      "",
    ].join("\n"));
    const out = await runAndStop(s, /app port 8123/, /shutdown hooks ran/);
    expect(out).toContain("fixture java 17.0.1: -Xmx1024M -Dapp.mode=prod -Xss1M -jar app.jar");
    expect(out).toContain(`app args: [--name] ["two] [words"] [$(touch] [pwned)] [--verbose]`);
    expect(existsSync(join(s.box.dir, "pwned"))).toBe(false);
  });
});
