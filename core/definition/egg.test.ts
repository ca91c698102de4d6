// Eggs read into Kiln templates, one of Kiln's own small egg fixtures per egg version
// (test/fixtures/kiln-eggs, written for these tests): each converted, checked by the template
// schema as a save would, and compared with what Pelican and Wings do with it field by field.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importTemplate } from "./import";
import { templateSchema, checkTemplateScripts, checkVariableValue, type Template } from ".";
import { KilnError } from "../errors";
import { chooseRunCommand } from "./run-command";
import { evaluateCondition } from "./conditions";

const FIXTURES = join(import.meta.dir, "../../test/fixtures/kiln-eggs");
const egg = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), "utf8"));

function convert(file: string) {
  const { format, template, notes } = importTemplate(egg(file));
  const parsed = templateSchema.parse(template);
  checkTemplateScripts(parsed);
  return { format, template: parsed as Template & Record<string, unknown>, notes };
}

const refusal = (fn: () => unknown): KilnError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof KilnError) return error;
    throw error;
  }
  throw new Error("not refused");
};

describe("PTDL_v1", () => {
  const { format, template, notes } = convert("ptdl-v1.json");
  test("config.* written as JSON texts are read; the image, startup, stop and done marker map", () => {
    expect(format).toBe("egg");
    expect(template.source).toBe("egg");
    expect(template.environment).toMatchObject({ type: "docker", image: "ghcr.io/kiln-test/yolk:echo", images: [{ display: "ghcr.io/kiln-test/yolk:echo", image: "ghcr.io/kiln-test/yolk:echo" }], conventions: "egg" });
    expect(template.run.stopCode).toBe(2);
    expect(template.run.stop).toBeUndefined();
    expect(template.run.readyMarkers).toEqual(["Echo ready"]);
    expect(notes).toContainEqual({ rule: "dropped", field: "config.logs", detail: '{"custom":false,"location":"logs/latest.log"}' });
  });
  test("the server's port is Kiln's port variable, chosen at creation (SERVER_PORT reads it)", () => {
    expect(template.data.port).toMatchObject({ type: "integer", value: "", required: true, userEdit: true, rules: { min: 1024, max: 65535 } });
  });
  test("a variable named as the runtime's own gets SERVER_, in the startup line and config files too", () => {
    expect(Object.keys(template.data)).toEqual(["GREETING", "SERVER_SERVER_PORT", "port"]);
    expect(notes).toContainEqual({ rule: "eggReservedName", field: "variables.1.env_variable", detail: "SERVER_SERVER_PORT" });
    expect(template.run.command).toBe('./echo --port ${SERVER_SERVER_PORT} --memory ${SERVER_MEMORY} --greeting "${GREETING}"');
    expect(template.data.SERVER_SERVER_PORT).toMatchObject({ type: "integer", value: 25565, required: true, userEdit: false, rules: { min: 1024, max: 65535 } });
    expect(notes).toContainEqual({ rule: "eggReadOnly", field: "data.SERVER_SERVER_PORT" });
  });
  test("a loader variable keeps its name (Wings gives it to the container as it is): no SERVER_ prefix", () => {
    const egg = { meta: { version: "PTDL_v2" }, name: "libs", docker_images: { a: "ghcr.io/kiln-test/yolk:echo" }, startup: "./game -libs {{LD_LIBRARY_PATH}} -lang {{LANGUAGE}}", config: { stop: "stop" }, variables: [
      { name: "Libraries", env_variable: "LD_LIBRARY_PATH", default_value: "./linux64", user_viewable: false, user_editable: false, rules: "required|string" },
      { name: "Language", env_variable: "LANGUAGE", default_value: "1", user_viewable: true, user_editable: true, rules: "required|string" },
      { name: "Path", env_variable: "PATH", default_value: "/x", user_viewable: false, user_editable: false, rules: "string" },
    ] };
    const { template: t, notes: n } = importTemplate(egg);
    expect(Object.keys(t.data as object).sort()).toEqual(["LANGUAGE", "LD_LIBRARY_PATH", "SERVER_PATH", "port"]);
    expect((t.run as { command: string }).command).toBe("./game -libs ${LD_LIBRARY_PATH} -lang ${LANGUAGE}");
    expect(n.filter((x) => x.rule === "eggReservedName").map((x) => x.detail)).toEqual(["SERVER_PATH"]);
  });
  test("the install script runs in its container, with Unix line ends", () => {
    expect(template.install).toEqual([{ type: "containerscript", image: "ghcr.io/kiln-test/installer:alpine", entrypoint: "ash", script: '#!/bin/ash\ncd /mnt/server\necho "$GREETING" > greeting.txt\n' }]);
    expect(template.run.pre).toEqual([{ type: "configfile", file: "echo.properties", parser: "properties", replace: [{ match: "port", value: "{{server.build.default.port}}" }, { match: "greeting", value: "{{server.build.env.GREETING}}" }] }]);
  });
});

describe("PTDL_v2", () => {
  const { template, notes } = convert("ptdl-v2.json");
  test("images offered in order, the first chosen; file_denylist kept without empty entries", () => {
    const env = template.environment as Record<string, unknown>;
    expect(env.images).toEqual([{ display: "Java 21", image: "ghcr.io/kiln-test/yolk:java_21" }, { display: "Java 17", image: "ghcr.io/kiln-test/yolk:java_17" }]);
    expect(env.image).toBe("ghcr.io/kiln-test/yolk:java_21");
    expect(template.fileDenylist).toEqual(["server.jar"]);
    expect(template.run.stop).toBe("stop");
  });
  test("Laravel rules become types, options and checks", () => {
    expect(template.data.SERVER_JARFILE).toMatchObject({ type: "string", required: true, rules: { pattern: "^([\\w\\d._-]+)(\\.jar)$" } });
    expect(template.data.LEVEL!.rules).toEqual({ minLength: 3, maxLength: 16, pattern: "^[\\p{L}\\p{M}\\p{N}_-]+$" });
    expect(template.data.PVP).toMatchObject({ type: "option", value: "1", options: [{ value: "1", display: "" }, { value: "0", display: "" }] });
    expect(template.data.MODE).toMatchObject({ type: "option", options: [{ value: "survival" }, { value: "creative" }, { value: "adventure" }] });
    expect(template.data.TOKEN).toMatchObject({ required: false, userEdit: false });
    // The checks hold on every path that checks values.
    expect(checkVariableValue("SERVER_JARFILE", template.data.SERVER_JARFILE!, "paper.jar")).toBe("paper.jar");
    expect(refusal(() => checkVariableValue("SERVER_JARFILE", template.data.SERVER_JARFILE!, "$(reboot).jar")).code).toBe("ErrFieldPatternMismatch");
    expect(refusal(() => checkVariableValue("LEVEL", template.data.LEVEL!, "ab")).code).toBe("ErrFieldLength");
    expect(refusal(() => checkVariableValue("LEVEL", template.data.LEVEL!, "a".repeat(17))).code).toBe("ErrFieldTooLarge");
    expect(refusal(() => checkVariableValue("LEVEL", template.data.LEVEL!, "my world")).code).toBe("ErrFieldPatternMismatch");
    expect(refusal(() => checkVariableValue("PVP", template.data.PVP!, "yes")).code).toBe("ErrFieldNotEqual");
  });
  test("startup keeps the shell's $VAR; eula becomes a variable and eula.txt; features noted", () => {
    expect(template.run.command).toBe("java -Xms128M -Xmx${SERVER_MEMORY}M -jar ${SERVER_JARFILE} --level $LEVEL");
    expect(template.data.EULA).toMatchObject({ type: "boolean", value: false, required: true });
    expect(template.run.pre[0]).toEqual({ type: "writefile", target: "eula.txt", text: "eula=${EULA}\n" });
    expect(notes.map((n) => n.rule)).toEqual(expect.arrayContaining(["eggFeatureEula", "eggFeatureJava", "eggFeaturePidLimit"]));
  });
  test("config files: yml is yaml, a find object gives one replacement per if-value", () => {
    expect(template.run.pre[2]).toEqual({
      type: "configfile",
      file: "config/paper.yml",
      parser: "yaml",
      replace: [
        { match: "settings.bungeecord", value: "true" },
        { match: "listeners[0].host", ifValue: "127.0.0.1", value: "{{config.docker.interface}}" },
        { match: "listeners[0].host", ifValue: "localhost", value: "{{config.docker.interface}}" },
      ],
    });
  });
});

describe("PLCN_v1", () => {
  const { template, notes } = convert("plcn-v1.json");
  test("^^C is Ctrl-C, said; done markers as a list with a regex one", () => {
    expect(template.run.stopCode).toBe(2);
    expect(notes).toContainEqual({ rule: "eggStop", field: "config.stop", detail: "SIGINT" });
    expect(template.run.readyMarkers).toEqual(["Server started", "regex:^Listening on \\d+"]);
  });
  test("numeric allows decimals and bounds the number; digits_between is a pattern", () => {
    const players = template.data.MAX_PLAYERS!;
    expect(players.type).toBe("string");
    // Its number pattern: no digits rule says it is a number already.
    expect(players.rules?.pattern).toBe("^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$");
    expect(notes.filter((n) => n.rule === "eggPattern")).toEqual([]);
    expect(refusal(() => checkVariableValue("MAX_PLAYERS", players, "1e")).code).toBe("ErrFieldPatternMismatch");
    expect(checkVariableValue("MAX_PLAYERS", players, "12.5")).toBe("12.5");
    expect(refusal(() => checkVariableValue("MAX_PLAYERS", players, "65")).code).toBe("ErrFieldTooLarge");
    expect(refusal(() => checkVariableValue("MAX_PLAYERS", players, "0")).code).toBe("ErrFieldTooSmall");
    expect(refusal(() => checkVariableValue("MAX_PLAYERS", players, "ten")).code).toBe("ErrFieldPatternMismatch");
    expect(refusal(() => checkVariableValue("TICK", template.data.TICK!, "1000")).code).toBe("ErrFieldPatternMismatch");
    expect(notes).toContainEqual({ rule: "eggFeatureSteamDisk", field: "features.steam_disk_space" });
    expect(template.install[0]).toMatchObject({ entrypoint: "/bin/bash" });
  });
});

describe("PLCN_v2", () => {
  const { template } = convert("plcn-v2.json");
  test("rules as a list; size is an exact length; a signal by name; no script, no install step", () => {
    expect(template.data.BOT_NAME!.rules).toEqual({ minLength: 4, maxLength: 4, pattern: "^[\\p{L}\\p{M}\\p{N}]+$" });
    expect(template.run.stopCode).toBe(15);
    expect(template.install).toEqual([]);
    expect(template.run.pre.map((s) => (s as { parser?: string }).parser)).toEqual(["json", "xml", "file"]);
    expect(template.fileDenylist).toEqual([".env"]);
  });
});

describe("PLCN_v3", () => {
  const { template, notes } = convert("plcn-v3.json");
  test("startup_commands: a server chooses one with an option variable; Default runs when nothing else is chosen", () => {
    expect(template.run.command).toEqual([{ command: "java -Ddebug=true -jar ${PROXY_JAR}", if: 'STARTUP_COMMAND == "Debug"' }, { command: "java -jar ${PROXY_JAR}" }]);
    expect(template.data.STARTUP_COMMAND).toMatchObject({ type: "option", value: "Default", userEdit: true, options: [{ value: "Default" }, { value: "Debug" }] });
    expect(notes).toContainEqual({ rule: "eggStartupChoice", field: "startup_commands", detail: "STARTUP_COMMAND" });
    const choose = (value: string) => chooseRunCommand(template.run, (condition) => evaluateCondition(condition, { env: "docker", os: "linux", arch: "amd64", serverId: "s", values: { STARTUP_COMMAND: value }, fileExists: () => false })).command;
    expect(choose("Debug")).toBe("java -Ddebug=true -jar ${PROXY_JAR}");
    expect(choose("Default")).toBe("java -jar ${PROXY_JAR}");
    expect(template.run.stop).toBe("end");
  });
  test("a pattern that backtracks in JavaScript is kept (RE2 runs it in linear time); a rule Kiln lacks is left out with a note; gt on an integer", () => {
    expect(template.data.PROXY_JAR!.rules).toEqual({ pattern: "^([a-z0-9]{32} ?)*$" });
    expect(notes.filter((n) => n.rule === "eggPattern")).toEqual([]);
    expect(notes).toContainEqual({ rule: "eggRule", field: "data.PORTS.rules", detail: "email" });
    expect(template.data.PORTS).toMatchObject({ type: "integer", value: 2, rules: { min: 1 } });
  });
  test("Pelican's newer placeholders stay as written, for the configfile step", () => {
    expect(template.run.pre[0]).toMatchObject({ type: "configfile", parser: "yaml", replace: [{ match: "listeners[0].host", value: "0.0.0.0:{{server.allocations.default.port}}" }] });
  });
});

describe("refusals", () => {
  const base = egg("ptdl-v2.json");
  test("neither a template nor an egg; an unknown egg version", () => {
    expect(refusal(() => importTemplate({ hello: 1 })).code).toBe("ErrTemplateUnrecognised");
    expect(refusal(() => importTemplate({ ...base, meta: { version: "PLCN_v9" } })).code).toBe("ErrTemplateUnrecognised");
  });
  test("an egg that cannot run names its field", () => {
    const field = (changes: Record<string, unknown>) => refusal(() => importTemplate({ ...base, ...changes })).metadata?.field;
    expect(field({ docker_images: {} })).toBe("docker_images");
    expect(field({ startup: "" })).toBe("startup");
    expect(field({ config: { ...base.config, files: '{"../../etc/passwd":{"parser":"file","find":{"root":"x"}}}' } })).toBe("config.files.../../etc/passwd");
    expect(field({ config: { ...base.config, files: '{"a.txt":{"parser":"toml","find":{}}}' } })).toBe("config.files.a.txt.parser");
    expect(field({ scripts: { installation: { script: "echo", container: "", entrypoint: "ash" } } })).toBe("scripts.installation.container");
    expect(field({ variables: [{ env_variable: "A B", rules: "" }] })).toBe("variables.0.env_variable");
  });
});
