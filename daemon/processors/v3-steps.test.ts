// PufferPanel v3's step types and fields against a real server folder and local fixture sites:
// conditions skip steps, steps hand variables on, extract/archive go through the jail, sleep is
// cut short by a kill, move takes wildcards, the Forge/NeoForge/Sponge steps and javadl's
// variable version, steamgamedl's account and extra arguments.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ZipFile } from "yazl";
import { stepSchema, type Step } from "../../core/definition/steps";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";
import { runSteps } from "./index";
import { durationMs } from "./pause";
import { compareVersions } from "../../core/mods/versions";

let fixtures: FixtureSources;
let extra: ReturnType<typeof Bun.serve>;
let extraBase = "";
beforeAll(() => {
  fixtures = startFixtureSources();
  // NeoForge's Maven and Sponge's v2 API, answered here.
  extra = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      if (path === "/neoforge/releases/net/neoforged/neoforge/maven-metadata.xml") {
        return new Response(`<metadata><versioning><versions>${["20.4.80-beta", "20.4.237", "20.4.9", "21.0.1"].map((v) => `<version>${v}</version>`).join("")}</versions></versioning></metadata>`);
      }
      const neo = /^\/neoforge\/releases\/net\/neoforged\/neoforge\/([^/]+)\/neoforge-\1-installer\.jar$/.exec(path);
      if (neo) return new Response(`neoforge installer ${neo[1]}`);
      if (path === "/sponge/v2/groups/org.spongepowered/artifacts/spongevanilla/versions") {
        return Response.json({ artifacts: { [url.searchParams.get("tags") === "minecraft:1.20.4" ? "1.20.4-11.0.0" : "1.21-12.0.0"]: {} } });
      }
      const sponge = /^\/sponge\/v2\/groups\/org.spongepowered\/artifacts\/spongevanilla\/versions\/(.+)$/.exec(path);
      if (sponge) return Response.json({ assets: [{ classifier: "", extension: "jar", downloadUrl: `${extraBase}/files/spongevanilla-${sponge[1]}.jar` }, { classifier: "sources", extension: "jar", downloadUrl: "x" }], tags: { minecraft: "1.20.4" } });
      if (path.startsWith("/files/")) return new Response(`jar ${path}`);
      return new Response("not found", { status: 404 });
    },
  });
  extraBase = `http://127.0.0.1:${extra.port}`;
});
afterAll(() => {
  fixtures.stop();
  void extra.stop(true);
});

const steps = (...raw: unknown[]): Step[] => raw.map((s) => stepSchema.parse(s));

function context(environmentType = "host") {
  const test = fixtures.context();
  test.ctx.environmentType = environmentType;
  test.ctx.serverId = "abc";
  test.ctx.sources = { ...test.ctx.sources, neoforge: `${extraBase}/neoforge`, sponge: `${extraBase}/sponge` };
  return test;
}

describe("conditions and variables between steps", () => {
  test("steps whose condition does not hold are skipped and said so; outputs reach later conditions and substitution", async () => {
    const { ctx, root, lines } = context("docker");
    const kept: Record<string, string>[] = [];
    await runSteps(
      steps(
        { type: "writefile", target: "host.txt", text: "h", if: "env == 'host'" },
        { type: "writefile", target: "docker.txt", text: "d ${serverId}", if: "env == 'docker' && serverId == 'abc'" },
        { type: "resolveforgeversion", version: "1.20.1-47.2.0", outputVariable: "resolved" },
        { type: "writefile", target: "resolved.txt", text: "${resolved}", if: "resolved == '1.20.1-47.2.0' && file_exists('docker.txt')" },
      ),
      { serverId: "abc", resolved: "" },
      ctx,
      { onVariables: (v) => void kept.push(v) },
    );
    expect(existsSync(join(root, "host.txt"))).toBe(false);
    expect(readFileSync(join(root, "docker.txt"), "utf8")).toBe("d abc");
    expect(readFileSync(join(root, "resolved.txt"), "utf8")).toBe("1.20.1-47.2.0");
    expect(kept).toEqual([{ resolved: "1.20.1-47.2.0" }]);
    expect(lines).toContain("step 1/4 (writefile) skipped: its condition env == 'host' does not hold");
  });

  test("a condition that cannot be evaluated fails the step with a reason", async () => {
    const { ctx } = context();
    await expect(runSteps(steps({ type: "mkdir", target: "x", if: "nosuch == 1" }), {}, ctx)).rejects.toMatchObject({ code: "ErrStepFailed", metadata: { step: "mkdir" } });
  });
});

describe("files", () => {
  test("extract unpacks through the jail (., subfolders); archive zips; move takes wildcards", async () => {
    const { ctx, root } = context();
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from("hello"), "1449/Linux/a.txt");
    zip.end();
    writeFileSync(join(root, "pack.zip"), Buffer.from(await new Response(zip.outputStream as unknown as ReadableStream).arrayBuffer()));
    writeFileSync(join(root, "paper-1.20.4-496.jar"), "paper");
    await runSteps(
      steps(
        { type: "extract", source: "pack.zip", destination: "." },
        { type: "move", source: "paper-*.jar", target: "server.jar" },
        { type: "move", source: "nothing-*.jar", target: "x.jar" },
        { type: "archive", source: ["1449"], destination: "backup.zip" },
      ),
      {},
      ctx,
    );
    expect(readFileSync(join(root, "1449/Linux/a.txt"), "utf8")).toBe("hello");
    expect(readFileSync(join(root, "server.jar"), "utf8")).toBe("paper");
    expect(existsSync(join(root, "backup.zip"))).toBe(true);
  });

  test("extract refuses an archive outside the folder and a destination that climbs out", async () => {
    const { ctx } = context();
    await expect(runSteps(steps({ type: "extract", source: "../outside.zip" }), {}, ctx)).rejects.toMatchObject({ code: "ErrStepFailed" });
    await expect(runSteps(steps({ type: "extract", source: "a.zip", destination: "../.." }), {}, ctx)).rejects.toMatchObject({ code: "ErrStepFailed" });
  });
});

describe("sleep and console", () => {
  test("durations as Go writes them; a kill cuts a sleep short; console prints a message", async () => {
    expect(durationMs("1m30s")).toBe(90_000);
    expect(durationMs("500ms")).toBe(500);
    expect(durationMs(2_000_000_000)).toBe(2000);
    expect(() => durationMs("soon")).toThrow();
    const abort = new AbortController();
    const { ctx, lines } = fixtures.context(abort.signal);
    const started = Date.now();
    setTimeout(() => abort.abort(), 100);
    await expect(runSteps(steps({ type: "console", message: "hello ${name}" }, { type: "sleep", duration: "1h" }), { name: "you" }, ctx)).rejects.toMatchObject({ code: "ErrStepFailed" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(lines).toContain("Message: hello you");
  });
});

describe("Forge, NeoForge, Sponge", () => {
  test("forgedl v3: target, the latest build for minecraftVersion, the version handed to outputVariable", async () => {
    const { ctx, root } = context();
    const kept: Record<string, string>[] = [];
    await runSteps(steps({ type: "forgedl", version: "", minecraftVersion: "1.19.2", target: "installer.jar", outputVariable: "resolvedForgeVersion" }), {}, ctx, { onVariables: (v) => void kept.push(v) });
    expect(kept).toEqual([{ resolvedForgeVersion: "1.19.2-43.2.0" }]);
    expect(existsSync(join(root, "installer.jar"))).toBe(true);
  });

  test("resolveforgeversion finds the newest complete install in libraries/", async () => {
    const { ctx, root } = context();
    for (const v of ["1.20.1-47.1.0", "1.20.1-47.10.2", "1.20.1-47.11.0"]) {
      mkdirSync(join(root, "libraries/net/minecraftforge/forge", v), { recursive: true });
      if (v !== "1.20.1-47.11.0") writeFileSync(join(root, "libraries/net/minecraftforge/forge", v, "unix_args.txt"), "x");
    }
    const kept: Record<string, string>[] = [];
    await runSteps(steps({ type: "resolveforgeversion", minecraftVersion: "1.20.1" }), {}, ctx, { onVariables: (v) => void kept.push(v) });
    expect(kept).toEqual([{ opForgeVersion: "1.20.1-47.10.2" }]);
    expect(compareVersions("20.4.237", "20.4.80-beta")).toBeGreaterThan(0);
  });

  test("neoforgedl: the newest build for the Minecraft version", async () => {
    const { ctx, root } = context();
    const kept: Record<string, string>[] = [];
    await runSteps(steps({ type: "neoforgedl", minecraftVersion: "1.20.4", target: "neo.jar" }), {}, ctx, { onVariables: (v) => void kept.push(v) });
    expect(kept).toEqual([{ opNeoForgeVersion: "20.4.237" }]);
    expect(readFileSync(join(root, "neo.jar"), "utf8")).toBe("neoforge installer 20.4.237");
  });

  test("spongedl: SpongeVanilla for a Minecraft version becomes server.jar", async () => {
    const { ctx, root } = context();
    await runSteps(steps({ type: "spongedl", spongeType: "spongevanilla", minecraftVersion: "1.20.4" }), {}, ctx);
    expect(readFileSync(join(root, "server.jar"), "utf8")).toBe("jar /files/spongevanilla-1.20.4-11.0.0.jar");
  });
});

describe("javadl and steamgamedl", () => {
  test("javadl takes a ${variable} version, checked once substituted", async () => {
    const { ctx, binariesDir } = context();
    await runSteps(steps({ type: "javadl", version: "${javaversion}" }), { javaversion: "17" }, ctx);
    expect(existsSync(join(binariesDir, "bin", "java17"))).toBe(true);
    await expect(runSteps(steps({ type: "javadl", version: "${javaversion}" }), { javaversion: "12; rm -rf /" }, ctx)).rejects.toMatchObject({ code: "ErrStepFailed", metadata: { step: "javadl" } });
  });

  test("steamgamedl logs in with the template's account and passes extra arguments, each one word", async () => {
    const { ctx, executed } = context();
    await runSteps(steps({ type: "steamgamedl", appId: "896660", username: "${user}", password: "p w", extraArgs: ["-beta", "public test"] }), { user: "bob +quit" }, ctx);
    const run = executed.find((e) => e.argv[0]!.endsWith("steamcmd.sh"))!;
    expect(run.argv.slice(3)).toEqual(["+login", "bob +quit", "p w", "+app_update", "896660", "-beta", "public test", "validate", "+quit"]);
  });
});
