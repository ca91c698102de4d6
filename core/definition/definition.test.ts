import { describe, expect, test } from "bun:test";
import { stepSchema, templateSchema, parsePortBinding, substitute, substituteDeep, splitCommandLine } from ".";

describe("template schema", () => {
  test("the echo test template parses, with defaults filled in", () => {
    const t = templateSchema.parse({ name: "echo", run: { command: "sh -c 'cat motd.txt'", stop: "quit" }, data: { greeting: { value: "world" } } });
    expect(t.run).toMatchObject({ workingDirectory: "", pre: [], post: [], autostart: false, autorestart: false, autorecover: false });
    expect(t.data.greeting).toMatchObject({ type: "string", required: true, userEdit: true });
    expect(t.environment).toEqual({ type: "standard" });
  });

  test("a single string is accepted where a list is expected", () => {
    expect(stepSchema.parse({ type: "download", files: "http://x/a.jar" })).toEqual({ type: "download", files: ["http://x/a.jar"] });
    expect(stepSchema.parse({ type: "command", commands: "echo hi" })).toEqual({ type: "command", commands: ["echo hi"] });
  });

  test("alterfile's regex defaults to true; javadl takes the versions it offers or a ${variable}", () => {
    expect(stepSchema.parse({ type: "alterfile", file: "a", search: "x", replace: "y" })).toMatchObject({ regex: true });
    expect(stepSchema.parse({ type: "javadl", version: "17" })).toEqual({ type: "javadl", version: 17 });
    expect(stepSchema.safeParse({ type: "javadl", version: 12 }).success).toBe(false);
    expect(stepSchema.parse({ type: "javadl", version: "${javaversion}" })).toEqual({ type: "javadl", version: "${javaversion}" });
    expect(stepSchema.safeParse({ type: "teleport" }).success).toBe(false);
  });

  test("docker environments default to the generic image and host networking", () => {
    const t = templateSchema.parse({ environment: { type: "docker" } });
    expect(t.environment).toEqual({ type: "docker", image: "kiln/generic", networkMode: "host", networkName: "", bindings: {}, portBindings: [] });
  });
});

describe("port bindings", () => {
  test("host defaults to {ip}, protocol to tcp", () => {
    expect(parsePortBinding("25565")).toEqual({ host: "{ip}", outside: 25565, inside: 25565, protocol: "tcp" });
    expect(parsePortBinding("25565:25566")).toEqual({ host: "{ip}", outside: 25565, inside: 25566, protocol: "tcp" });
    expect(parsePortBinding("0.0.0.0:27015:27015/udp")).toEqual({ host: "0.0.0.0", outside: 27015, inside: 27015, protocol: "udp" });
    expect(parsePortBinding("1:2:3:4")).toBeNull();
    expect(parsePortBinding("99999")).toBeNull();
  });
});

describe("substitution and command lines", () => {
  test("${name} is replaced; unknown names stay as written", () => {
    expect(substitute("hello ${greeting} ${missing}", { greeting: "world" })).toBe("hello world ${missing}");
    expect(substituteDeep({ files: ["${base}/a"], n: 3 }, { base: "http://x" })).toEqual({ files: ["http://x/a"], n: 3 });
  });

  test("split like a shell: quotes and escapes, no shell run", () => {
    expect(splitCommandLine(`sh -c 'cat motd.txt; while read l; do echo "got $l"; done'`)).toEqual(["sh", "-c", `cat motd.txt; while read l; do echo "got $l"; done`]);
    expect(splitCommandLine(`java -Xmx1G "-Dname=a b" x\\ y`)).toEqual(["java", "-Xmx1G", "-Dname=a b", "x y"]);
    expect(() => splitCommandLine("echo 'open")).toThrow();
  });
});
