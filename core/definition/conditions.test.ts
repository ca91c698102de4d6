import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConditionError, conditionProblem, evaluateCondition, evaluateOnValues, goArch, goOs, MAX_CONDITION_LENGTH, type ConditionFacts } from "./conditions";

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

describe("the cost of a condition is bounded before it is evaluated", () => {
  const TEN = "[0,1,2,3,4,5,6,7,8,9]";
  const nested = (depth: number, body = "true") => Array.from({ length: depth }).reduce<string>((inner, _, i) => `${TEN}.all(x${i}, ${inner})`, body);

  test("nested comprehensions are refused unevaluated, at once; a few levels still run", () => {
    const started = performance.now();
    expect(() => evaluateCondition(nested(8), facts())).toThrow(/cost too much/);
    expect(() => evaluateOnValues(nested(8), {})).toThrow(/cost too much/);
    expect(performance.now() - started).toBeLessThan(500);
    expect(evaluateCondition(nested(3), facts())).toBe(true);
    expect(evaluateCondition(`${TEN}.map(x, x * 2).filter(y, y > 5).exists_one(z, z == 18)`, facts())).toBe(true);
    expect(evaluateCondition(`[${Array.from({ length: 100 }, (_, i) => i).join(",")}].all(x, x >= 0 && modlauncher != string(x))`, facts())).toBe(true);
  });

  test("what multiplies sizes counts: chained maps, cel.bind, join, split", () => {
    expect(conditionProblem(`${TEN}.map(a, ${TEN})${".map(y, y + y)".repeat(12)}.size() > 0`)).toContain("cost too much");
    expect(conditionProblem(`${Array.from({ length: 12 }, (_, i) => `cel.bind(v${i + 1}, v${i} + v${i}, `).join("").replace("v0 + v0", "serverId + serverId")}v12.size() > 0${")".repeat(12)}`)).toContain("cost too much");
    expect(conditionProblem(`${Array.from({ length: 4 }).reduce<string>((inner) => `${TEN}.map(a, serverId).join(${inner})`, "serverId")}.size() > 0`)).toContain("cost too much");
    expect(conditionProblem("cel.bind(v, modlauncher + '-', v + v == 'forge-forge-')")).toBeUndefined();
  });

  test("at run the values' own sizes count", () => {
    const condition = "javaversion.split('').all(c, javaversion.contains(c))";
    expect(evaluateCondition(condition, facts())).toBe(true);
    expect(() => evaluateCondition(condition, facts({ values: { javaversion: "1".repeat(5000) } }))).toThrow(/cost too much/);
    // A long value costs nothing to compare with a short one.
    expect(evaluateCondition("javaversion != ''", facts({ values: { javaversion: "1".repeat(1_000_000) } }))).toBe(true);
  });

  test("matches() is refused: cel-js runs it on JavaScript's backtracking engine", () => {
    const started = performance.now();
    expect(() => evaluateCondition(`'${"a".repeat(40)}!'.matches('^(a|a)*$')`, facts())).toThrow(/matches\(\) is not supported/);
    expect(conditionProblem("modlauncher.matches('^for')")).toContain("matches() is not supported");
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("every condition of Kiln's templates and the PufferPanel fixtures is within the bound", () => {
    const conditions: string[] = [];
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(collect);
      if (!value || typeof value !== "object") return;
      for (const [key, entry] of Object.entries(value)) key === "if" && typeof entry === "string" ? conditions.push(entry) : collect(entry);
    };
    const root = join(import.meta.dir, "../..");
    for (const folder of ["templates", "test/fixtures/pufferpanel-templates", "test/fixtures/pufferpanel-v3"]) {
      for (const file of new Bun.Glob("**/*.json").scanSync(join(root, folder))) collect(JSON.parse(readFileSync(join(root, folder, file), "utf8")));
    }
    expect(conditions.length).toBeGreaterThan(20);
    for (const condition of conditions) expect([condition, conditionProblem(condition)]).toEqual([condition, undefined]);
  });
});
