// Attack: importing eggs. Someone without templates.edit imports or PUTs an egg; an egg
// whose variable names, defaults and config values carry $(…), quotes and line breaks; config
// files that climb out of the server folder; huge eggs; rules with patterns that backtrack
// catastrophically in JavaScript (in an egg, and in a Kiln template saved directly). Every refusal
// is a catalogue error that stores nothing; what is stored keeps hostile text as data; patterns
// run on RE2's linear-time engine, and one it cannot run is refused or left out.
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { KilnError } from "../../core/errors";
import { checkVariableValue, type Variable } from "../../core/definition";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";

const EGG = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/kiln-eggs/ptdl-v2.json"), "utf8"));
const withConfig = (files: unknown) => ({ ...EGG, config: { ...EGG.config, files: JSON.stringify(files) } });

let panel: TestPanel;
let editor: string;
beforeEach(async () => {
  panel = await testPanel();
  ({ token: editor } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]));
});

const put = (id: string, body: unknown, token = editor) =>
  panel.request(`/api/templates/${id}`, { token, method: "PUT", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
const errorOf = async (res: Response) => {
  const body = await res.json();
  return { status: res.status, code: body.error?.code, field: body.error?.metadata?.field };
};
const stored = async () => (await (await panel.request("/api/templates", { token: editor })).json()).map((t: { id: string }) => t.id);

describe("who may import", () => {
  test("a user who may only view templates (or nothing) cannot PUT or import an egg", async () => {
    const { token: viewer } = await loginAs(panel.db, [SCOPES.templatesView]);
    const { token: nobody } = await loginAs(panel.db, []);
    for (const token of [viewer, nobody]) {
      const res = await put("egg", EGG, token);
      expect(res.status).toBe(403);
      const imported = await panel.request("/api/templates/import/egg", { token, method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(imported.status).toBe(403);
    }
    expect(await stored()).toEqual([]);
  });
});

describe("hostile egg values", () => {
  test("a variable name with $(…), quotes, spaces or a line break is refused by field; nothing is stored", async () => {
    for (const name of ["$(touch /tmp/pwned)", 'A"B', "A B", "A\nB", "${PATH}", ""]) {
      const egg = { ...EGG, variables: [{ ...EGG.variables[0], env_variable: name }] };
      expect(await errorOf(await put("egg", egg))).toEqual({ status: 400, code: "ErrTemplateFieldInvalid", field: "variables.0.env_variable" });
    }
    expect(await stored()).toEqual([]);
  });

  test("defaults and config values with $(…), quotes and line breaks stay data: never spliced into the startup line", async () => {
    const hostile = `$(touch /tmp/pwned) "quoted" 'single'\nnext-line=evil`;
    const egg = {
      ...withConfig({ "server.properties": { parser: "properties", find: { motd: hostile, "a\nb": "{{server.build.env.MOTD}}" } } }),
      startup: "./run --motd {{MOTD}}",
      variables: [{ name: "MOTD", description: hostile, env_variable: "MOTD", default_value: hostile, user_viewable: true, user_editable: true, rules: "nullable|string" }],
    };
    const res = await put("egg", egg);
    expect(res.status).toBe(200);
    expect(res.headers.get("kiln-import-format")).toBe("egg");
    const template = await res.json();
    expect(template.run.command).toBe("./run --motd ${MOTD}");
    expect(template.data.MOTD.value).toBe(hostile);
    expect(template.run.pre.find((s: { type: string }) => s.type === "configfile").replace).toEqual([
      { match: "motd", value: hostile },
      { match: "a\nb", value: "{{server.build.env.MOTD}}" },
    ]);
    // The default carries a line break: a value users could never set; the import says so.
    const { template: _t, ...answer } = await (async () => {
      const { storeTemplate } = await import("../../server/services/templates");
      return await storeTemplate(panel.db, "egg2", egg);
    })();
    expect(answer.notes).toContainEqual({ rule: "eggDefault", field: "data.MOTD.value", detail: "ErrFieldHasControlCharacters" });
    expect(() => checkVariableValue("MOTD", template.data.MOTD, "a\nenable-rcon=true")).toThrow();
  });

  test("config files that climb out of the server folder refuse the whole egg; a leading / stays inside", async () => {
    for (const path of ["../outside.txt", "config/../../outside.txt", "..\\..\\outside.txt", "a/..", "..", "x\u0000y"]) {
      expect((await errorOf(await put("egg", withConfig({ [path]: { parser: "file", find: { a: "b" } } })))).code).toBe("ErrTemplateFieldInvalid");
    }
    expect(await stored()).toEqual([]);
    const res = await put("egg", withConfig({ "/etc/passwd": { parser: "file", find: { "root:": "x" } } }));
    expect(res.status).toBe(200);
    expect((await res.json()).run.pre.find((s: { type: string }) => s.type === "configfile").file).toBe("etc/passwd");
  });
});

describe("wrong-shaped eggs", () => {
  test("every field of the wrong type is refused with a catalogue error or converted: never a 500, nothing half stored", async () => {
    const shapes: Array<Record<string, unknown>> = [
      { variables: "x" }, { variables: [null] }, { variables: [{ env_variable: 5 }] }, { variables: [{ env_variable: "A", rules: 5, default_value: { x: 1 } }] },
      { variables: [{ env_variable: "A", rules: ["in:", "max:x", "between:1", "regex:", "regex:/(/", "regex:abc", "digits_between:a,b", "gt:field"] }] },
      { config: "x" }, { config: { files: "{not json" } }, { config: { files: "[1,2]" } }, { config: { files: { "a.txt": "x" } } }, { config: { files: { "a.txt": { parser: "file", find: "x" } } } },
      { config: { files: { "a.txt": { parser: "file", find: { a: null, b: [1], c: { "if": null } } } } } }, { config: { startup: "{not json", stop: 5 } }, { config: { startup: { done: [1, null, ""] } } },
      { scripts: "x" }, { scripts: { installation: "x" } }, { scripts: { installation: { script: 5, container: 5 } } },
      { docker_images: "x" }, { docker_images: { a: 5 } }, { docker_images: [] }, { docker_images: ["", "img:1"] },
      { startup: 5 }, { startup: null, startup_commands: { a: 5 } }, { startup: null, startup_commands: [] },
      { features: "eula" }, { features: [5, "eula", "eula"] }, { file_denylist: "x" }, { file_denylist: [5, "ok"] }, { meta: { version: "PTDL_v2", update_url: { a: 1 } } },
    ];
    for (const [i, shape] of shapes.entries()) {
      const res = await put(`shape-${i}`, { ...EGG, ...shape });
      expect(res.status).not.toBe(500);
      const body = await res.json();
      if (res.status !== 200) expect(body.error.code).toMatch(/^Err/);
      else expect(body.source).toBe("egg");
    }
    // A feature named twice is one feature: one EULA variable, one eula.txt step.
    const twice = await (await put("twice", { ...EGG, features: ["eula", "eula"] })).json();
    expect(Object.keys(twice.data).filter((name) => name.startsWith("EULA"))).toEqual(["EULA"]);
    expect(twice.run.pre.filter((s: { target?: string }) => s.target === "eula.txt")).toHaveLength(1);
  });
});

describe("huge eggs", () => {
  test("a body past the panel's limit, a huge script, startup or variable list is refused; nothing is stored", async () => {
    expect((await errorOf(await put("egg", `{"meta":{"version":"PTDL_v2"},"x":"${"x".repeat(17 * 1024 * 1024)}"}`))).code).toBe("ErrMessageTooLarge");
    expect(await errorOf(await put("egg", { ...EGG, scripts: { installation: { ...EGG.scripts.installation, script: "x".repeat(300 * 1024) } } }))).toMatchObject({ code: "ErrTemplateFieldInvalid", field: "scripts.installation.script" });
    expect(await errorOf(await put("egg", { ...EGG, startup: "x".repeat(9000) }))).toMatchObject({ code: "ErrTemplateFieldInvalid", field: "startup" });
    const many = Array.from({ length: 500 }, (_, i) => ({ ...EGG.variables[1], env_variable: `V${i}` }));
    expect(await errorOf(await put("egg", { ...EGG, variables: many }))).toMatchObject({ code: "ErrTemplateFieldInvalid", field: "variables" });
    const files = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}.txt`, { parser: "file", find: { a: "b" } }]));
    expect(await errorOf(await put("egg", withConfig(files)))).toMatchObject({ code: "ErrTemplateFieldInvalid", field: "config.files" });
    expect(await stored()).toEqual([]);
  });
});

describe("catastrophic patterns", () => {
  // Shapes that backtrack exponentially or polynomially in JavaScript's engine.
  const EVIL = ["(a+)+$", "^(a|a)*$", "(\\w+\\s?)*$", "^(a*)*b", "(.*a){20}", "(a|aa)+", "^(([a-z])+.)+[A-Z]([a-z])+$", "(x+x+)+y", "(a{1,10}){1,10}$", "^\\w*\\w*\\w*\\w*$"];

  test("patterns that backtrack in JavaScript are saved and checked in linear time; those RE2 cannot run are refused by field", async () => {
    for (const [i, pattern] of EVIL.entries()) {
      const template = { display: "t", run: { command: "./x" }, data: { v: { value: "a", rules: { pattern } } } };
      expect((await put(`kiln${i}`, template)).status).toBe(200);
      const variable = { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, rules: { pattern } } as Variable;
      const started = performance.now();
      try {
        checkVariableValue("v", variable, `${"a".repeat(4000)}!`);
      } catch (error) {
        expect(error instanceof KilnError && error.code).toBe("ErrFieldPatternMismatch");
      }
      expect(performance.now() - started).toBeLessThan(100);
    }
    for (const pattern of ["(\\1a)", "(?<=a)b", "^(?!x)y$", "(a)\\k<1>"]) {
      const template = { display: "t", run: { command: "./x" }, data: { v: { value: "a", rules: { pattern } } } };
      expect(await errorOf(await put("refused", template))).toMatchObject({ status: 400, code: "ErrTemplateFieldInvalid", field: "data.v.rules" });
    }
    expect(await stored()).not.toContain("refused");
  });

  test("in an egg, a pattern RE2 cannot run is left out with a note; the egg is stored", async () => {
    const { storeTemplate } = await import("../../server/services/templates");
    const egg = { ...EGG, variables: [{ ...EGG.variables[0], rules: "required|regex:/^(a)\\1$/" }] };
    const { template, notes } = await storeTemplate(panel.db, "egg", egg);
    expect(template.data.SERVER_JARFILE!.rules).toBeUndefined();
    expect(notes).toContainEqual({ rule: "eggPattern", field: "data.SERVER_JARFILE.rules", detail: "regex:/^(a)\\1$/: back-references are not supported (RE2 syntax)" });
  });

  test("a stored definition with a pattern RE2 refuses (written around the schema) matches no value, at once", () => {
    const variable = { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, rules: { pattern: "^(?=a)a+$" } } as Variable;
    let code: string | undefined;
    try {
      checkVariableValue("v", variable, "aaa");
    } catch (error) {
      code = error instanceof KilnError ? error.code : undefined;
    }
    expect(code).toBe("ErrFieldPatternMismatch");
  });

  test("a value at the length limit against the eggs' patterns is checked in milliseconds", () => {
    const variable = { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, rules: { pattern: "^([\\w\\d._-]+)(\\.jar)$" } } as Variable;
    const started = performance.now();
    expect(() => checkVariableValue("v", variable, `${"a".repeat(4095)}!`)).toThrow();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("not a template", () => {
  test("objects that are neither a template nor an egg are refused, never stored empty", async () => {
    for (const body of [{}, { hello: "world" }, { meta: { version: "PLCN_v99" }, name: "x" }, { meta: { version: "PTDL_v0" }, startup: "x" }]) {
      expect(await errorOf(await put("thing", body))).toMatchObject({ status: 400, code: "ErrTemplateUnrecognised" });
    }
    // Not even an object: the JSON itself is refused first.
    for (const body of [[], "text", 1, null]) expect((await errorOf(await put("thing", body))).status).toBe(400);
    expect(await stored()).toEqual([]);
  });
});
