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

import { consoleAddress } from "./console-address";
import { dockerImage, dockerPortBindings } from "./docker-values";

describe("what only the template decides, checked again at start", () => {
  const data = (userEdit: boolean) => templateSchema.parse({ data: { p: { type: "string", value: "x", userEdit }, t: { type: "string", value: "21", userEdit: true } } });

  test("a network console: loopback only, a port number, no user-editable address or port", () => {
    expect(consoleAddress({ type: "telnet", port: "8081" }, data(false), {})).toEqual({ host: "127.0.0.1", port: 8081, password: "" });
    expect(consoleAddress({ type: "rcon", ip: "localhost", port: "${p}", password: "${t}" }, data(false), { p: "27015", t: "pw" })).toEqual({ host: "127.0.0.1", port: 27015, password: "pw" });
    expect(consoleAddress({ type: "rcon", ip: "::1", port: "1" }, data(false), {}).host).toBe("::1");
    expect(() => consoleAddress({ type: "rcon", port: "${p}" }, data(true), { p: "6379" })).toThrow(expect.objectContaining({ code: "ErrUserVariableNotAllowed", metadata: { field: "run.stdin.port", variable: "p" } }));
    for (const ip of ["10.0.0.1", "0.0.0.0", "127.0.0.1.evil", "128.0.0.1", "::", "example.com"]) {
      expect(() => consoleAddress({ type: "telnet", ip, port: "1" }, data(false), {})).toThrow(expect.objectContaining({ code: "ErrConsoleNotLocal" }));
    }
    for (const port of ["0", "65536", "80 81", "", "1e3"]) expect(() => consoleAddress({ type: "telnet", port }, data(false), {})).toThrow(expect.objectContaining({ code: "ErrConsoleNotLocal" }));
  });

  test("a docker image: a user's value is a tag only; port bindings: no user address, no privileged port", () => {
    expect(dockerImage("eclipse-temurin:${t}", data(false), { t: "21" })).toBe("eclipse-temurin:21");
    expect(dockerImage("registry.local:5000/java:${t}", data(false), { t: "17-jre" })).toBe("registry.local:5000/java:17-jre");
    for (const t of ["21@sha256:00", "x/y", "a:b", "", " 21"]) expect(() => dockerImage("eclipse-temurin:${t}", data(false), { t })).toThrow(expect.objectContaining({ code: "ErrUserVariableNotAllowed" }));
    expect(() => dockerImage("${p}:1", data(true), { p: "attacker/rootkit" })).toThrow(expect.objectContaining({ code: "ErrUserVariableNotAllowed" }));
    expect(dockerImage("${p}:1", data(false), { p: "mine" })).toBe("mine:1");
    expect(dockerPortBindings(["0.0.0.0:${t}:${t}/tcp"], data(false), { t: "25565" })).toEqual(["0.0.0.0:25565:25565/tcp"]);
    expect(() => dockerPortBindings(["0.0.0.0:${t}:${t}/tcp"], data(false), { t: "22" })).toThrow(expect.objectContaining({ code: "ErrUserVariableNotAllowed" }));
    expect(() => dockerPortBindings(["${t}:30000:30000"], data(false), { t: "0.0.0.0" })).toThrow(expect.objectContaining({ code: "ErrUserVariableNotAllowed" }));
    expect(dockerPortBindings(["0.0.0.0:${p}:25565"], data(false), { p: "80" })).toEqual(["0.0.0.0:80:25565"]);
  });

  test("the template is refused when saved if a user's value reaches them", () => {
    const parsed = templateSchema.safeParse({ data: { p: { type: "integer", value: 1, userEdit: true } }, run: { stdin: { type: "telnet", port: "${p}" } } });
    expect(parsed.success).toBe(false);
    expect(templateFieldError(parsed.error!).metadata).toMatchObject({ field: "run.stdin.port" });
  });
});
