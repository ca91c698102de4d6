import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { templateSchema, variableSchema, type Variable } from "./template";
import { checkVariableValue, MAX_LINE_VALUE, withVariableValues } from "./variable-value";
import { assertNoReservedKeys } from "./object-keys";

const variable = (v: Partial<Variable>): Variable => variableSchema.parse(v);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as KilnError).code;
  }
  return "accepted";
};

describe("checkVariableValue", () => {
  test("integers: numbers and digit strings, nothing else", () => {
    const v = variable({ type: "integer", value: 1 });
    expect(checkVariableValue("memory", v, 2048)).toBe(2048);
    expect(checkVariableValue("memory", v, " 2048 ")).toBe(2048);
    for (const bad of ["$(touch x)", "1;touch x", "1.5", 1.5, true, "1e3", "0x10", Number.MAX_SAFE_INTEGER + 2]) expect(codeOf(() => checkVariableValue("memory", v, bad))).toBe("ErrFieldNotInteger");
    expect(codeOf(() => checkVariableValue("memory", v, ""))).toBe("ErrFieldRequired");
  });

  test("booleans: true/false and what a form sends", () => {
    const v = variable({ type: "boolean", value: false });
    expect([true, "true", "on", "1"].map((x) => checkVariableValue("eula", v, x))).toEqual([true, true, true, true]);
    expect([false, "false", "off", "0", ""].map((x) => checkVariableValue("eula", v, x))).toEqual([false, false, false, false, false]);
    for (const bad of ["yes", "true\nx", 2]) expect(codeOf(() => checkVariableValue("eula", v, bad))).toBe("ErrFieldNotBoolean");
  });

  test("options: one of the options, typed as the option is", () => {
    const v = variable({ type: "option", value: 1, options: [{ value: 1, display: "one" }, { value: "two", display: "two" }] });
    expect(checkVariableValue("o", v, "1")).toBe(1);
    expect(checkVariableValue("o", v, "two")).toBe("two");
    expect(codeOf(() => checkVariableValue("o", v, "three"))).toBe("ErrFieldNotEqual");
  });

  test("strings: one line without control characters, bounded, unless multi-line", () => {
    const v = variable({ type: "string", value: "", required: false });
    expect(checkVariableValue("motd", v, `$(touch x); "a b" 'c' \`d\` ünïcode`)).toBe(`$(touch x); "a b" 'c' \`d\` ünïcode`);
    expect(checkVariableValue("motd", v, 42)).toBe("42");
    for (const bad of ["a\nenable-rcon=true", "a\rb", "a\u0000b", "a\tb", "\u001b[2J", "a\u2028b", "a\u0085b"]) expect(codeOf(() => checkVariableValue("motd", v, bad))).toBe("ErrFieldHasControlCharacters");
    expect(codeOf(() => checkVariableValue("motd", v, "x".repeat(MAX_LINE_VALUE + 1)))).toBe("ErrFieldTooLarge");
    expect(codeOf(() => checkVariableValue("motd", v, { a: 1 }))).toBe("ErrInvalidJson");
    const text = variable({ type: "string", value: "", multiLine: true });
    expect(checkVariableValue("text", text, "line 1\r\nline 2\tx")).toBe("line 1\r\nline 2\tx");
    expect(codeOf(() => checkVariableValue("text", text, "a\u0000b"))).toBe("ErrFieldHasControlCharacters");
  });
});

describe("withVariableValues", () => {
  const def = templateSchema.parse({ data: { motd: { value: "hi" }, memory: { type: "integer", value: 1 } } });

  test("writes checked values into a copy", () => {
    const next = withVariableValues(def, JSON.parse('{"motd":"hello","memory":"64"}'));
    expect([next.data.motd!.value, next.data.memory!.value, def.data.motd!.value]).toEqual(["hello", 64, "hi"]);
  });

  test("__proto__, constructor and unknown names are ErrNotFound; Object.prototype is left alone", () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "nope"]) {
      expect(codeOf(() => withVariableValues(def, JSON.parse(`{"${name}":"x"}`)))).toBe("ErrNotFound");
    }
    expect(({} as Record<string, unknown>).value).toBeUndefined();
  });
});

describe("reserved names in the definition format", () => {
  test("__proto__ and constructor are refused as variable names and map keys, never merged into a prototype", () => {
    for (const name of ["constructor", "prototype", "toString"]) {
      expect(templateSchema.safeParse(JSON.parse(`{"data":{"${name}":{"value":"x"}}}`)).success).toBe(false);
      expect(templateSchema.safeParse(JSON.parse(`{"run":{"environmentVars":{"${name}":"x"}}}`)).success).toBe(false);
      expect(templateSchema.safeParse(JSON.parse(`{"environment":{"type":"docker","bindings":{"${name}":"/x"}}}`)).success).toBe(false);
    }
    // zod drops a "__proto__" key itself; the routes refuse the JSON as sent.
    const parsed = templateSchema.parse(JSON.parse('{"data":{"__proto__":{"value":"x","userEdit":false}}}'));
    expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
    expect(codeOf(() => assertNoReservedKeys(JSON.parse('{"run":{"environmentVars":{"__proto__":"x"}}}')))).toBe("ErrInvalidJson");
    expect(codeOf(() => assertNoReservedKeys(JSON.parse('{"data":{"motd":{"value":"a"}},"list":[{"constructor":1}]}')))).toBe("ErrInvalidJson");
    expect(codeOf(() => assertNoReservedKeys(JSON.parse('{"data":{"motd":{"value":"__proto__"}}}')))).toBe("accepted");
  });
});
