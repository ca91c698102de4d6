// The one compiler of user- and template-supplied patterns: linear time on shapes that backtrack
// in JavaScript, RE2's refusals said in plain terms, JavaScript's replacement syntax, a bounded
// program.
import { describe, expect, test } from "bun:test";
import { compilePattern, patternProblem, PatternError, MAX_PATTERN_LENGTH, MAX_PROGRAM_SIZE } from "./index";
import { checkVariableValue, type Variable } from "../definition";
import { patternParts, rulesProblem } from "../definition/variable-rules";
import { KilnError } from "../errors";

const timed = <T>(run: () => T): [T, number] => {
  const started = performance.now();
  const result = run();
  return [result, performance.now() - started];
};

describe("linear time", () => {
  test("^\\w*\\w*\\w*\\w*$ against 4096 characters is checked in a few milliseconds (JavaScript's engine: hours)", () => {
    const pattern = compilePattern("^\\w*\\w*\\w*\\w*$");
    pattern.test("warm-up");
    const [matched, ms] = timed(() => pattern.test(`${"a".repeat(4095)}!`));
    expect(matched).toBe(false);
    expect(ms).toBeLessThan(50);
    expect(pattern.test("a".repeat(4096))).toBe(true);
  });

  test("through a variable's rules, the value is refused at once with the catalogue error", () => {
    const variable = { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, rules: { pattern: "^\\w*\\w*\\w*\\w*$" } } as Variable;
    checkVariableValue("name", variable, "warm");
    const [error, ms] = timed(() => {
      try {
        checkVariableValue("name", variable, `${"a".repeat(4095)}!`);
      } catch (e) {
        return e;
      }
    });
    expect(error).toBeInstanceOf(KilnError);
    expect((error as KilnError).code).toBe("ErrFieldPatternMismatch");
    expect((error as KilnError).metadata).toEqual({ field: "name", pattern: "^\\w*\\w*\\w*\\w*$" });
    expect(ms).toBeLessThan(50);
  });

  test("a pattern of look-aheads from the start (how the egg importer joins rules) checks each part with RE2", () => {
    const joined = "(?=^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$)(?=^[0-9]{1,3}$)(?=[\\s\\S]*?(?:[(]?7))";
    expect(patternParts(joined)).toEqual(["^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$", "^[0-9]{1,3}$", "[(]?7"]);
    expect(rulesProblem({ pattern: joined })).toBeNull();
    const variable = { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, rules: { pattern: joined } } as Variable;
    expect(checkVariableValue("n", variable, "17")).toBe("17");
    for (const value of ["1000", "12", "1e3"]) expect(() => checkVariableValue("n", variable, value)).toThrow(KilnError);
    // Look-ahead anywhere else is not this form, and RE2 refuses it.
    expect(patternParts("^(?=a)a$")).toEqual(["^(?=a)a$"]);
    expect(rulesProblem({ pattern: "(?=a)b" })).toBe("look-ahead and look-behind are not supported (RE2 syntax)");
  });

  test("the classic exponential shapes finish on long texts", () => {
    for (const source of ["(a+)+$", "^(a|a)*$", "(\\w+\\s?)*$", "(x+x+)+y", "^(([a-z])+.)+[A-Z]([a-z])+$"]) {
      const [, ms] = timed(() => compilePattern(source).test(`${"a".repeat(20_000)}!`));
      expect(ms, source).toBeLessThan(250);
    }
  });
});

describe("what the engine refuses", () => {
  test("look-around and back-references, in the template author's terms", () => {
    expect(patternProblem("^(?=a)a$")).toBe("look-ahead and look-behind are not supported (RE2 syntax)");
    expect(patternProblem("(?<!a)b")).toBe("look-ahead and look-behind are not supported (RE2 syntax)");
    expect(patternProblem("(a)\\1")).toBe("back-references are not supported (RE2 syntax)");
    expect(patternProblem("[a-")).toContain("missing closing ]");
  });

  test("a pattern too long, or too large once compiled", () => {
    expect(patternProblem("a".repeat(MAX_PATTERN_LENGTH + 1))).toBe(`longer than ${MAX_PATTERN_LENGTH} characters`);
    expect(patternProblem("(.*a){250}")).toContain(`at most ${MAX_PROGRAM_SIZE}`);
    // The eggs' largest: digits_between:1,100.
    expect(patternProblem("^[0-9]{1,100}$")).toBeNull();
  });

  test("compilePattern throws a PatternError, again from its cache", () => {
    for (let i = 0; i < 2; i++) expect(() => compilePattern("(?=x)")).toThrow(PatternError);
  });
});

describe("matching and replacing", () => {
  test("anchored only where the pattern says; Unicode classes", () => {
    expect(compilePattern("[a-z]+").test("123abc")).toBe(true);
    expect(compilePattern("^[a-z]+$").test("123abc")).toBe(false);
    expect(compilePattern("^[\\p{L}\\p{N}]+$").test("Élan9")).toBe(true);
  });

  test("replacements read as String.prototype.replace reads them", () => {
    const pattern = compilePattern("(^|\\n)motd=[^\\r\\n]*");
    expect(pattern.replaceAll("a=1\nmotd=old\nb=2", "$1motd=new $$ $&")).toBe("a=1\nmotd=new $ \nmotd=old\nb=2");
    expect(compilePattern("(?P<head>value=\")[^\"]*").replaceAll('<p value="1"/>', "$<head>26900")).toBe('<p value="26900"/>');
    expect(compilePattern("x*").replaceAll("abc", "-")).toBe("abc".replace(/x*/g, "-"));
  });
});
