// The definition editor's pure conversions (convert.ts, step-fields.ts): port bindings, the stop
// setting, key-value maps, steps, variables, and definition ↔ form round trips that keep the
// fields the editor does not know.
import { describe, expect, test } from "bun:test";
import { templateSchema } from "../../core/definition";
import {
  applyStop,
  changeVariableType,
  definitionToForm,
  emptyPortRow,
  formToDefinition,
  formToEnvironment,
  environmentToForm,
  isValidVariableName,
  pairsToRecord,
  parseDefinitionJson,
  portRowFromString,
  portRowToString,
  portRowsToStrings,
  recordToPairs,
  stopFromRun,
  switchStopType,
} from "./convert";
import { newStep, stepForEditing, stepForSaving, stepSummary } from "./step-fields";
import { sampleDefinition } from "./test-fixture";

describe("port bindings", () => {
  test("a full binding string becomes a row and an unedited row gives back the same text", () => {
    const row = portRowFromString("0.0.0.0:25565:25566/udp");
    expect(row).toMatchObject({ host: "0.0.0.0", outside: "25565", inside: "25566", protocol: "udp" });
    expect(portRowToString(row)).toBe("0.0.0.0:25565:25566/udp");
  });

  test("a short form gets the defaults host {ip} and tcp, and keeps its text until edited", () => {
    const row = portRowFromString("25565");
    expect(row).toMatchObject({ host: "{ip}", outside: "25565", inside: "25565", protocol: "tcp" });
    expect(portRowToString(row)).toBe("25565");
    expect(portRowToString({ ...row, inside: "25575" })).toBe("{ip}:25565:25575/tcp");
  });

  test("an edited row is written in full; blank host, inside port and protocol take their defaults", () => {
    expect(portRowToString({ host: "", outside: "8080", inside: "", protocol: "" })).toBe("{ip}:8080:8080/tcp");
    expect(portRowToString({ host: "127.0.0.1", outside: " 27015 ", inside: "27016", protocol: "UDP" })).toBe("127.0.0.1:27015:27016/udp");
  });

  test("a new row starts at {ip} over tcp, and a row left empty is no binding", () => {
    expect(emptyPortRow()).toEqual({ host: "{ip}", outside: "", inside: "", protocol: "tcp" });
    expect(portRowsToStrings([emptyPortRow(), { ...emptyPortRow(), outside: "7777" }])).toEqual(["{ip}:7777:7777/tcp"]);
  });

  test("a string the node would not accept is shown in parts and kept as written until edited", () => {
    const row = portRowFromString("abc:99999/sctp6");
    expect(row).toMatchObject({ host: "", outside: "abc", inside: "99999", protocol: "sctp6" });
    expect(portRowsToStrings([row])).toEqual(["abc:99999/sctp6"]);
  });
});

describe("stop setting", () => {
  test("stopCode means signal, anything else command", () => {
    expect(stopFromRun({ stopCode: 2 })).toEqual({ type: "signal", value: 2 });
    expect(stopFromRun({ stop: "stop" })).toEqual({ type: "command", value: "stop" });
    expect(stopFromRun({})).toEqual({ type: "command", value: "" });
  });

  test("switching the type resets the value to empty text or 0; the same type keeps it", () => {
    expect(switchStopType({ type: "command", value: "stop" }, "signal")).toEqual({ type: "signal", value: 0 });
    expect(switchStopType({ type: "signal", value: 15 }, "command")).toEqual({ type: "command", value: "" });
    expect(switchStopType({ type: "signal", value: 15 }, "signal")).toEqual({ type: "signal", value: 15 });
  });

  test("only one of stop and stopCode is written; a blank command writes neither", () => {
    expect(applyStop({ stop: "stop", command: "x" }, { type: "signal", value: 2 })).toEqual({ command: "x", stopCode: 2 });
    expect(applyStop({ stopCode: 2 }, { type: "command", value: "end" })).toEqual({ stop: "end" });
    expect(applyStop({ stop: "stop", stopCode: 9 }, { type: "command", value: "" })).toEqual({});
  });
});

describe("key-value maps", () => {
  test("rows keep their order; blank keys are left out and a repeated key keeps the last value", () => {
    expect(recordToPairs({ A: "1", B: "2" })).toEqual([{ key: "A", value: "1" }, { key: "B", value: "2" }]);
    expect(pairsToRecord([{ key: "A", value: "1" }, { key: " ", value: "lost" }, { key: "A ", value: "3" }])).toEqual({ A: "3" });
    expect(recordToPairs(undefined)).toEqual([]);
  });
});

describe("steps", () => {
  test("a new step is a command with an empty list; every type gets its fields at their defaults", () => {
    expect(newStep()).toEqual({ type: "command", commands: [] });
    expect(newStep("alterfile")).toEqual({ type: "alterfile", file: "", regex: true, search: "", replace: "" });
    expect(newStep("javadl")).toEqual({ type: "javadl", version: 25 });
  });

  test("a single string becomes a one-entry list for editing; blank entries are dropped on apply", () => {
    expect(stepForEditing({ type: "download", files: "https://example.com/a.jar" })).toEqual({ type: "download", files: ["https://example.com/a.jar"] });
    expect(stepForSaving({ type: "command", commands: ["a", " ", "b"], retries: 2 })).toEqual({ type: "command", commands: ["a", "b"], retries: 2 });
  });

  test("the list shows a summary from the step's first field", () => {
    expect(stepSummary({ type: "command", commands: ["one", "two", "three"] })).toBe("one (+2)");
    expect(stepSummary({ type: "mkdir", target: "logs" })).toBe("logs");
    expect(stepSummary({ type: "unknown" })).toBe("");
  });
});

describe("variables", () => {
  test("a name is non-blank and has no spaces", () => {
    expect(isValidVariableName("memory")).toBe(true);
    expect(isValidVariableName("max.players-2")).toBe(true);
    for (const bad of ["", " ", "max players", "tab\there", " lead"]) expect(isValidVariableName(bad)).toBe(false);
  });

  test("changing the type to option creates an empty options list only if none exists; values follow the type", () => {
    expect(changeVariableType({ type: "string", value: "a" }, "option")).toEqual({ type: "option", value: "a", options: [] });
    const kept = [{ value: "x", display: "X" }];
    expect(changeVariableType({ type: "string", value: "x", options: kept }, "option").options).toBe(kept);
    expect(changeVariableType({ type: "string", value: "12" }, "integer").value).toBe(12);
    expect(changeVariableType({ type: "string", value: "many" }, "integer").value).toBe(0);
    expect(changeVariableType({ type: "string", value: "true" }, "boolean").value).toBe(true);
    expect(changeVariableType({ type: "integer", value: 5 }, "string").value).toBe("5");
  });
});

describe("environment", () => {
  test("docker fields are written only for docker, and survive a switch away and back", () => {
    const form = environmentToForm({ type: "docker", image: "img", networkMode: "bridge", networkName: "net", bindings: { "/a": "/b" }, portBindings: ["1000"], gpu: true });
    expect(formToEnvironment({ ...form, type: "standard" })).toEqual({ type: "standard", gpu: true });
    expect(formToEnvironment(form)).toEqual({ type: "docker", image: "img", networkMode: "bridge", networkName: "net", bindings: { "/a": "/b" }, portBindings: ["1000"], gpu: true });
  });

  test("a blank image is left out so the node uses its default; network mode defaults to host", () => {
    const form = environmentToForm({ type: "standard" });
    expect(form.networkMode).toBe("host");
    expect(formToEnvironment({ ...form, type: "docker" })).toEqual({ type: "docker", networkMode: "host", networkName: "", bindings: {}, portBindings: [] });
  });
});

describe("the whole definition", () => {
  test("definition → form → definition is the same object, unknown fields and all", () => {
    const definition = sampleDefinition();
    const back = formToDefinition(definitionToForm(JSON.parse(JSON.stringify(definition))));
    expect(back).toEqual(definition);
    // and it still is a valid definition
    expect(templateSchema.safeParse(back).success).toBe(true);
  });

  test("edits land where the node reads them, and only there", () => {
    const form = definitionToForm(sampleDefinition());
    form.display = "Renamed";
    form.stop = { type: "signal", value: 2 };
    form.environmentVars = [...form.environmentVars, { key: "JAVA_OPTS", value: "-Dx=1" }];
    form.variables = form.variables.filter((v) => v.name !== "eula");
    form.environment = { ...form.environment, portBindings: [...form.environment.portBindings, { ...emptyPortRow(), outside: "8123" }] };
    const def = formToDefinition(form) as ReturnType<typeof sampleDefinition>;
    expect(def.display).toBe("Renamed");
    expect(def.run.stopCode).toBe(2);
    expect("stop" in def.run).toBe(false);
    expect(def.run.autostart).toBe(true);
    expect(def.run.environmentVars).toEqual({ TZ: "UTC", LANG: "C.UTF-8", JAVA_OPTS: "-Dx=1" });
    expect(Object.keys(def.data)).toEqual(["memory"]);
    expect((def.environment as { portBindings: string[] }).portBindings).toEqual(["0.0.0.0:25565:25565/tcp", "19132/udp", "{ip}:8123:8123/tcp"]);
    expect(def.icon).toBe("creeper.png");
    expect(def.meta).toEqual({ tags: ["survival"], author: { name: "someone" } });
  });

  test("a command written as a list is shown as one line", () => {
    expect(definitionToForm({ run: { command: ["./a", "./b"] } }).command).toBe("./a && ./b");
  });

  test("only a JSON object is a definition", () => {
    expect(parseDefinitionJson('{"a":1}')).toEqual({ a: 1 });
    for (const bad of ["{", "[]", "null", "3", ""]) expect(parseDefinitionJson(bad)).toBeNull();
  });
});
