// Variable groups as a form shows them and the panel reads them at creation: order, each variable
// once, conditions on the values alone (as PufferPanel's web UI evaluates them), and a condition
// that cannot be evaluated leaving its group shown.
import { describe, expect, test } from "bun:test";
import { templateSchema } from "./template";
import { evaluateOnValues, ConditionError } from "./conditions";
import { formValues, groupVisible, hiddenVariables, layoutGroups, typedFormValue } from "./variable-groups";

// Shaped as PufferPanel's official minecraft template (v3) writes its groups.
const template = templateSchema.parse({
  data: {
    eula: { type: "boolean", value: false },
    memory: { type: "integer", value: 2048 },
    modlauncher: { type: "option", value: "", options: [{ value: "" }, { value: "forge" }, { value: "paper" }] },
    forgebuild: { type: "string", value: "", required: false },
    paperbuild: { type: "string", value: "478", required: false },
    motd: { type: "string", value: "hi" },
  },
  groups: [
    { if: "modlauncher == 'paper'", display: "Paper", variables: ["paperbuild"], order: 3 },
    { display: "General", variables: ["eula", "memory", "modlauncher"], order: 1 },
    { if: "modlauncher == 'forge'", display: "Forge", variables: ["forgebuild", "nosuch"], order: 2 },
  ],
});

const values = (raw: Record<string, string>) => formValues(template.data, raw);

describe("layoutGroups", () => {
  test("groups in their order, conditions on the form's values, the rest after them", () => {
    const layout = layoutGroups(template.data, template.groups, values({}));
    expect(layout.groups.map((g) => [g.display, g.visible, g.variables])).toEqual([
      ["General", true, ["eula", "memory", "modlauncher"]],
      ["Forge", false, ["forgebuild"]],
      ["Paper", false, ["paperbuild"]],
    ]);
    expect(layout.ungrouped).toEqual(["motd"]);
    expect(layoutGroups(template.data, template.groups, values({ modlauncher: "forge" })).groups.map((g) => g.visible)).toEqual([true, true, false]);
    expect(layoutGroups(template.data, template.groups, values({ modlauncher: "paper" })).groups.map((g) => g.visible)).toEqual([true, false, true]);
  });

  test("a variable two groups name is shown once, in the first visible one", () => {
    const groups = [
      { display: "A", description: "", variables: ["motd"], order: 1, if: "memory > 4096" },
      { display: "B", description: "", variables: ["motd"], order: 2 },
    ];
    expect(layoutGroups(template.data, groups, values({})).groups.map((g) => g.variables)).toEqual([[], ["motd"]]);
    expect(layoutGroups(template.data, groups, values({ memory: "8192" })).groups.map((g) => g.variables)).toEqual([["motd"], []]);
  });

  test("hiddenVariables: only those every group showing them hides", () => {
    expect([...hiddenVariables(template.data, template.groups, values({}))].sort()).toEqual(["forgebuild", "paperbuild"]);
    expect([...hiddenVariables(template.data, template.groups, values({ modlauncher: "forge" }))]).toEqual(["paperbuild"]);
    expect([...hiddenVariables(template.data, undefined, values({}))]).toEqual([]);
  });
});

describe("conditions on the values alone", () => {
  test("form text is read as the variable's type: integers compare as numbers, booleans as booleans", () => {
    expect(typedFormValue(template.data.memory!, "4096")).toBe(4096);
    expect(typedFormValue(template.data.memory!, "lots")).toBe("lots");
    expect(typedFormValue(template.data.eula!, "true")).toBe(true);
    expect(typedFormValue(template.data.eula!, undefined)).toBe(false);
    expect(groupVisible({ if: "memory >= 4096 && eula" }, values({ memory: "4096", eula: "true" }))).toBe(true);
    expect(groupVisible({ if: "memory >= 4096 && eula" }, values({ memory: "1024", eula: "true" }))).toBe(false);
  });

  test("the environment, node and files are not known to the form: such a condition leaves the group shown", () => {
    expect(() => evaluateOnValues("env == 'docker'", values({}))).toThrow(ConditionError);
    expect(groupVisible({ if: "env == 'docker'" }, values({}))).toBe(true);
    expect(groupVisible({ if: "file_exists('server.jar')" }, values({}))).toBe(true);
    expect(groupVisible({ if: "memory" }, values({}))).toBe(true);
    expect(groupVisible({ if: "" }, values({}))).toBe(true);
    expect(groupVisible({}, values({}))).toBe(true);
  });

  test("values cannot inject into the expression: they are data", () => {
    expect(groupVisible({ if: "modlauncher == 'forge'" }, formValues({ ...template.data, modlauncher: { ...template.data.modlauncher!, type: "string" } }, { modlauncher: "x' || true || '" }))).toBe(false);
  });
});
