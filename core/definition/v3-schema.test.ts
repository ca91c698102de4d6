// The definition format speaks PufferPanel v3: host environments, `if` on steps, command entries
// and groups, run.stdin consoles, expectedExitCode, the v3 step types; unknown fields are kept;
// refusals name the field and what would be accepted.
import { describe, expect, test } from "bun:test";
import { stepSchema } from "./steps";
import { templateSchema } from "./template";
import { templateFieldError } from "./template-errors";
import { chooseRunCommand, runCommandLines } from "./run-command";
import { environmentSchema } from "./environment";

const refusal = (input: unknown) => {
  const parsed = templateSchema.safeParse(input);
  if (parsed.success) throw new Error("accepted");
  return templateFieldError(parsed.error).metadata;
};

describe("the v3 template format", () => {
  test("unknown fields inside steps, run, variables, environments and stdin round-trip", () => {
    const input = {
      display: "x",
      icon: "minecraft-java",
      data: { port: { type: "integer", value: 25565, internal: true, extra: { a: 1 } } },
      install: [{ type: "download", files: ["https://x/y.jar"], if: "env == 'host'", future: "kept" }],
      run: {
        command: [{ command: "java -jar server.jar", if: "env == 'host'", note: "kept" }, { command: "java -jar server.jar" }],
        stdin: { type: "telnet", port: "8081", ipv6: false },
        expectedExitCode: 143,
        somethingNew: [1, 2],
      },
      environment: { type: "host", custom: 1 },
      supportedEnvironments: [{ type: "host" }, { type: "docker", image: "eclipse-temurin:${javaversion}", containerRoot: "/pufferpanel", hostConfig: { Memory: 1 } }],
      groups: [{ if: "modlauncher == 'forge'", display: "Forge", description: "", variables: ["forgebuild"], order: 2, collapsed: true }],
      stats: { type: "jcmd" },
    };
    const once = templateSchema.parse(input);
    const twice = templateSchema.parse(JSON.parse(JSON.stringify(once)));
    expect(twice).toEqual(once);
    expect(once.install[0]).toMatchObject({ future: "kept", if: "env == 'host'" });
    expect(once.run).toMatchObject({ somethingNew: [1, 2], expectedExitCode: 143, stdin: { type: "telnet", port: "8081", ipv6: false } });
    expect(once.run.command).toEqual([{ command: "java -jar server.jar", if: "env == 'host'", note: "kept" }, { command: "java -jar server.jar" }]);
    expect(once.data.port).toMatchObject({ internal: true, extra: { a: 1 } });
    expect(once.environment).toEqual({ type: "host", custom: 1 });
    expect(once.supportedEnvironments[1]).toMatchObject({ containerRoot: "/pufferpanel", hostConfig: { Memory: 1 } });
    expect(once.groups?.[0]).toMatchObject({ collapsed: true });
    expect((once as Record<string, unknown>).stats).toEqual({ type: "jcmd" });
  });

  test("Kiln's older forms still read the same", () => {
    const t = templateSchema.parse({ run: { command: ["a", "b"] }, environment: { type: "standard" } });
    expect(t.run.command).toBe("a && b");
    expect(environmentSchema.parse({ type: "tty" })).toEqual({ type: "tty" });
    expect(stepSchema.parse({ type: "forgedl", version: "1.20.1", filename: "installer.jar" })).toMatchObject({ filename: "installer.jar" });
  });

  test("the v3 step types and fields", () => {
    expect(stepSchema.parse({ type: "fabricdl" })).toEqual({ type: "fabricdl", targetFile: "fabric-installer.jar" });
    expect(stepSchema.parse({ type: "forgedl", target: "installer.jar", version: "${forgebuild}", minecraftVersion: "${version}", outputVariable: "resolvedForgeVersion" })).toMatchObject({ target: "installer.jar" });
    expect(stepSchema.parse({ type: "steamgamedl", appId: 294420, username: "u", password: "p", extraArgs: "-beta" })).toMatchObject({ appId: "294420", extraArgs: ["-beta"] });
    for (const version of [8, 11, 17, 21, 25, "21", "${javaversion}"]) expect(stepSchema.safeParse({ type: "javadl", version }).success).toBe(true);
    expect(stepSchema.parse({ type: "extract", source: "a.zip", destination: "." })).toMatchObject({ destination: "." });
    expect(stepSchema.parse({ type: "archive", source: "world", destination: "w.zip" })).toMatchObject({ source: ["world"] });
    expect(stepSchema.parse({ type: "sleep", duration: "1m30s" })).toMatchObject({ duration: "1m30s" });
    expect(stepSchema.parse({ type: "console", message: "hi" })).toMatchObject({ message: "hi" });
    expect(stepSchema.parse({ type: "resolveforgeversion" })).toMatchObject({ outputVariable: "opForgeVersion" });
    expect(stepSchema.parse({ type: "neoforgedl", minecraftVersion: "1.20.4", target: "i.jar" })).toMatchObject({ outputVariable: "opNeoForgeVersion" });
    expect(stepSchema.parse({ type: "spongedl", spongeType: "spongevanilla" })).toMatchObject({ recommended: false });
    expect(stepSchema.parse({ type: "curseforge", projectId: 123 })).toMatchObject({ projectId: "123", fileId: "", java: "java" });
  });

  test("refusals name the field and say what would be accepted", () => {
    expect(refusal({ install: [{ type: "javadl", version: "${javaversion" }] })).toEqual({ field: "install.0.version", expected: "expected a Java version (8, 11, 16, 17, 21, 25) or a ${variable}" });
    expect(refusal({ install: [{ type: "javadl", version: 12 }] })).toMatchObject({ field: "install.0.version" });
    expect(refusal({ install: [{ type: "teleport" }] })).toMatchObject({ field: "install.0.type", expected: expect.stringContaining("one of download, command") });
    expect(refusal({ environment: { type: "pterodactyl" } })).toMatchObject({ field: "environment.type", expected: expect.stringContaining("standard, tty, host, docker") });
    expect(refusal({ run: { stdin: { type: "ssh" } } })).toMatchObject({ field: "run.stdin.type", expected: expect.stringContaining("stdin, telnet, rcon, rconws") });
    expect(refusal({ install: [{ type: "command", commands: ["x"], if: "env ==" }] })).toMatchObject({ field: "install.0.if", expected: expect.stringContaining("expected a condition") });
    expect(refusal({ run: { command: [{ command: "x", if: "(" }] } })).toMatchObject({ field: "run.command.0.if" });
    expect(refusal({ groups: [{ if: "a ==", variables: [] }] })).toMatchObject({ field: "groups.0.if" });
    expect(refusal({ install: [{ type: "sleep", duration: "soon" }] })).toMatchObject({ field: "install.0.duration", expected: expect.stringContaining('"5s"') });
    expect(refusal({ install: [{ type: "forgedl", version: "" }] })).toMatchObject({ field: "install.0.version" });
    expect(refusal({ run: { expectedExitCode: "x" } })).toMatchObject({ field: "run.expectedExitCode", expected: "expected a whole number" });
  });

  test("the run command: the first entry whose condition holds, else the one without", () => {
    const run = templateSchema.parse({
      run: { command: [{ command: "a", if: "windows" }, { command: "b", if: "host", stdin: { type: "rcon", port: "1" } }, { command: "c" }], stdin: { type: "telnet", port: "2" } },
    }).run;
    const holds = (set: string[]) => (c: string) => set.includes(c);
    expect(chooseRunCommand(run, holds(["host"]))).toEqual({ command: "b", field: "run.command.1.command", stdin: { type: "rcon", port: "1" } });
    expect(chooseRunCommand(run, holds(["windows", "host"])).command).toBe("a");
    expect(chooseRunCommand(run, holds([]))).toEqual({ command: "c", field: "run.command.2.command", stdin: { type: "telnet", port: "2" } });
    expect(chooseRunCommand({ command: "x" }, holds([]))).toEqual({ command: "x", field: "run.command", stdin: { type: "stdin" } });
    expect(runCommandLines(run).map(([field]) => field)).toEqual(["run.command.0.command", "run.command.1.command", "run.command.2.command"]);
  });
});
