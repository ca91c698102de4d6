import { describe, expect, test } from "bun:test";
import { ConditionError, conditionProblem, evaluateCondition, goArch, goOs, MAX_CONDITION_LENGTH, type ConditionFacts } from "./conditions";

const facts = (over: Partial<ConditionFacts> = {}): ConditionFacts => ({
  env: "host",
  os: "linux",
  arch: "amd64",
  serverId: "abc123",
  values: { modlauncher: "forge", javaversion: "21", memory: 2048, eula: true, forgebuild: "1.20.1-47.2.0" },
  fileExists: (path) => path === "server.jar" || path === "forge-1.20.1-47.2.0.jar",
  ...over,
});

describe("conditions (CEL, as PufferPanel v3 evaluates them)", () => {
  test("the official templates' forms: env, os, arch, variables, file_exists with concatenation", () => {
    expect(evaluateCondition("env == 'host'", facts())).toBe(true);
    expect(evaluateCondition("env == 'docker'", facts())).toBe(false);
    expect(evaluateCondition("env != 'host'", facts({ env: "docker" }))).toBe(true);
    expect(evaluateCondition("javaversion != '' && env == 'host'", facts())).toBe(true);
    expect(evaluateCondition("modlauncher == 'forge' && file_exists('forge-' + forgebuild + '.jar')", facts())).toBe(true);
    expect(evaluateCondition("env == 'host' && !file_exists('server.jar')", facts())).toBe(false);
    expect(evaluateCondition('!file_exists("server.properties")', facts())).toBe(true);
    expect(evaluateCondition("os == 'linux' && arch == 'amd64'", facts())).toBe(true);
    expect(evaluateCondition("serverId == 'abc123'", facts())).toBe(true);
    // Integers are CEL ints, booleans bools.
    expect(evaluateCondition("memory > 1024 && eula", facts())).toBe(true);
  });

  test("an empty condition holds, or means success where a step's outcome is known", () => {
    expect(evaluateCondition(undefined, facts())).toBe(true);
    expect(evaluateCondition("  ", facts())).toBe(true);
    expect(evaluateCondition("", facts({ success: false }))).toBe(false);
    expect(evaluateCondition("success", facts({ success: true }))).toBe(true);
  });

  test("variables override env and serverId; os and arch win over variables", () => {
    expect(evaluateCondition("env == 'mine'", facts({ values: { env: "mine" } }))).toBe(true);
    expect(evaluateCondition("os == 'linux'", facts({ values: { os: "plan9" } }))).toBe(true);
  });

  test("file_exists is asked the path exactly as the expression built it", () => {
    const asked: string[] = [];
    evaluateCondition("file_exists('../../secret') || file_exists('/etc/passwd')", facts({ fileExists: (p) => (asked.push(p), false) }));
    expect(asked).toEqual(["../../secret", "/etc/passwd"]);
  });

  test("errors name the condition and what is wrong; a result must be true or false", () => {
    expect(() => evaluateCondition("env ==", facts())).toThrow(ConditionError);
    expect(() => evaluateCondition("nosuchvariable == 1", facts())).toThrow(/nosuchvariable/);
    expect(() => evaluateCondition("memory + 1", facts())).toThrow(/a number, not true or false/);
    expect(() => evaluateCondition("x".repeat(MAX_CONDITION_LENGTH + 1), facts())).toThrow(/longer than/);
  });

  test("a huge expression is refused at parse time, quickly", () => {
    const started = performance.now();
    expect(() => evaluateCondition(Array(500).fill("true").join(" && "), facts())).toThrow(ConditionError);
    expect(() => evaluateCondition(`${"(".repeat(200)}true${")".repeat(200)}`, facts())).toThrow(ConditionError);
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("conditionProblem checks syntax and calls, leaving unknown names to run time", () => {
    expect(conditionProblem("env == 'host' && modpack != ''")).toBeUndefined();
    expect(conditionProblem("env == ")).toBeString();
    expect(conditionProblem("file_exists(1)")).toContain("file_exists");
    expect(conditionProblem("")).toBeUndefined();
  });

  test("Go's names for the node's OS and processor", () => {
    expect(goOs("win32")).toBe("windows");
    expect(goOs("linux")).toBe("linux");
    expect(goArch("x64")).toBe("amd64");
    expect(goArch("arm64")).toBe("arm64");
  });
});
