// A template's environments in the editor's form model (convert.ts): the supported list read from
// a template (one entry per type, the default kept by type), changes to the list keeping a valid
// default, the types Add may offer, and the way back to environment + supportedEnvironments.
import { describe, expect, test } from "bun:test";
import { ENVIRONMENT_TYPES } from "../../core/definition/constants";
import { templateSchema } from "../../core/definition";
import { definitionToForm, environmentToForm, formToDefinition, unusedEnvironmentTypes, withEnvironmentList, type EnvironmentsForm, type Json } from "./convert";

const docker = { type: "docker", image: "eclipse-temurin:21-jre", networkMode: "host", networkName: "", bindings: { "/srv/maps": "/data/maps" }, portBindings: ["0.0.0.0:25565:25565/tcp"] };

/**
 * A template as stored: three environments, the default one (docker) second and written out as
 * that entry, and fields Kiln does not know (on the template and on an environment, which a
 * newer Kiln or another tool may have written; the schema would strip the latter, so it is added after).
 */
function template(over: Json = {}): Json {
  return {
    ...templateSchema.parse({
      name: "paper",
      display: "Paper",
      type: "minecraft-java",
      run: { command: "java -jar server.jar", stop: "stop" },
    }),
    environment: docker,
    supportedEnvironments: [{ type: "standard" }, docker, { type: "tty", extra: "kept" }],
    icon: "paper.png",
    ...over,
  };
}

const envs = (form: EnvironmentsForm | null) => ({ types: form?.list.map((e) => e.type), defaultType: form?.defaultType });

describe("reading a template's environments", () => {
  test("the supported list in order, the default by the environment's type", () => {
    const form = definitionToForm(template(), { template: true });
    expect(envs(form.environments)).toEqual({ types: ["standard", "docker", "tty"], defaultType: "docker" });
    expect(form.environments!.list[1]).toMatchObject({ image: "eclipse-temurin:21-jre", networkMode: "host", portBindings: [{ host: "0.0.0.0", outside: "25565", inside: "25565", protocol: "tcp" }] });
  });

  test("a server definition (no template option) has no list", () => {
    expect(definitionToForm(template()).environments).toBeNull();
  });

  test("a template with no supportedEnvironments gets its environment as the list", () => {
    const bare = template({ environment: { type: "tty" }, supportedEnvironments: [] });
    expect(envs(definitionToForm(bare, { template: true }).environments)).toEqual({ types: ["tty"], defaultType: "tty" });
    const { supportedEnvironments: _s, ...missing } = template({ environment: docker });
    const form = definitionToForm(missing, { template: true });
    expect(envs(form.environments)).toEqual({ types: ["docker"], defaultType: "docker" });
    expect(form.environments!.list[0]!.image).toBe("eclipse-temurin:21-jre");
    // and neither: a standard one
    const { supportedEnvironments: _n, environment: _e, ...none } = template();
    expect(envs(definitionToForm(none, { template: true }).environments)).toEqual({ types: ["standard"], defaultType: "standard" });
  });

  test("a second entry of a type is dropped (the first one wins); entries that are not objects too", () => {
    const form = definitionToForm(
      template({ supportedEnvironments: [{ type: "docker", image: "first" }, "docker", null, { type: "standard" }, { type: "docker", image: "second" }, { type: "standard", extra: 1 }] }),
      { template: true },
    );
    expect(envs(form.environments)).toEqual({ types: ["docker", "standard"], defaultType: "docker" });
    expect(form.environments!.list[0]!.image).toBe("first");
    expect(form.environments!.list[1]!.base).toEqual({ type: "standard" });
  });

  test("a default whose type is not listed falls back to the first entry", () => {
    const form = definitionToForm(template({ environment: { type: "tty" }, supportedEnvironments: [{ type: "standard" }, docker] }), { template: true });
    expect(envs(form.environments)).toEqual({ types: ["standard", "docker"], defaultType: "standard" });
    expect(formToDefinition(form).environment).toEqual({ type: "standard" });
  });
});

describe("withEnvironmentList", () => {
  const start = (): EnvironmentsForm => definitionToForm(template(), { template: true }).environments!;

  test("adding a type not listed yet keeps the default", () => {
    const form: EnvironmentsForm = { list: [environmentToForm({ type: "standard" })], defaultType: "standard" };
    expect(envs(withEnvironmentList(form, [...form.list, environmentToForm({ type: "tty" })]))).toEqual({ types: ["standard", "tty"], defaultType: "standard" });
  });

  test("a second entry of a listed type is refused", () => {
    const form = start();
    expect(withEnvironmentList(form, [...form.list, environmentToForm({ type: "docker", image: "other" })])).toBeNull();
    expect(withEnvironmentList(form, [form.list[0]!, { ...form.list[1]!, type: "standard" }])).toBeNull();
  });

  test("removing the default makes the first remaining entry the default; removing another keeps it", () => {
    const form = start();
    expect(envs(withEnvironmentList(form, [form.list[0]!, form.list[2]!]))).toEqual({ types: ["standard", "tty"], defaultType: "standard" });
    expect(envs(withEnvironmentList({ ...form, defaultType: "standard" }, [form.list[1]!, form.list[2]!]))).toEqual({ types: ["docker", "tty"], defaultType: "docker" });
    expect(envs(withEnvironmentList(form, [form.list[1]!, form.list[2]!]))).toEqual({ types: ["docker", "tty"], defaultType: "docker" });
  });

  test("an entry whose type is changed takes the default along only if the type stays listed", () => {
    const form: EnvironmentsForm = { list: [environmentToForm({ type: "standard" }), environmentToForm({ type: "docker" })], defaultType: "docker" };
    // docker edited into tty: docker is gone, the first entry is the default
    expect(envs(withEnvironmentList(form, [form.list[0]!, { ...form.list[1]!, type: "tty" }]))).toEqual({ types: ["standard", "tty"], defaultType: "standard" });
  });

  test("an empty list has no default", () => {
    expect(withEnvironmentList(start(), [])).toEqual({ list: [], defaultType: "" });
  });
});

describe("unusedEnvironmentTypes", () => {
  const list = (...types: string[]) => types.map((type) => environmentToForm({ type }));

  test("what Add offers: the types not listed, in the catalogue's order", () => {
    expect(unusedEnvironmentTypes([], ENVIRONMENT_TYPES)).toEqual(["standard", "tty", "host", "docker"]);
    expect(unusedEnvironmentTypes(list("docker"), ENVIRONMENT_TYPES)).toEqual(["standard", "tty", "host"]);
    expect(unusedEnvironmentTypes(list("tty", "standard", "docker"), ENVIRONMENT_TYPES)).toEqual(["host"]);
    expect(unusedEnvironmentTypes(list("tty", "host", "standard", "docker"), ENVIRONMENT_TYPES)).toEqual([]);
  });

  test("editing an entry also offers its own type", () => {
    expect(unusedEnvironmentTypes(list("standard", "docker"), ENVIRONMENT_TYPES, "docker")).toEqual(["tty", "host", "docker"]);
    expect(unusedEnvironmentTypes(list("tty", "standard", "docker"), ENVIRONMENT_TYPES, "standard")).toEqual(["standard", "host"]);
  });
});

describe("writing the environments back", () => {
  test("an unchanged template comes back as it was, unknown fields included", () => {
    expect(formToDefinition(definitionToForm(template(), { template: true }))).toEqual(template());
  });

  test("environment is the default entry, as the list writes it", () => {
    const form = definitionToForm(template(), { template: true });
    const list = form.environments!.list.map((e) => (e.type === "docker" ? { ...e, image: "eclipse-temurin:17-jre" } : e));
    const out = formToDefinition({ ...form, environments: { list, defaultType: "docker" } });
    expect(out.supportedEnvironments).toEqual([{ type: "standard" }, { ...docker, image: "eclipse-temurin:17-jre" }, { type: "tty", extra: "kept" }]);
    expect(out.environment).toEqual({ ...docker, image: "eclipse-temurin:17-jre" });
    const tty = formToDefinition({ ...form, environments: { list, defaultType: "tty" } });
    expect(tty.environment).toEqual({ type: "tty", extra: "kept" });
  });

  test("a docker entry with a blank image leaves the image out (the node's default)", () => {
    const form = definitionToForm(template(), { template: true });
    const list = form.environments!.list.map((e) => (e.type === "docker" ? { ...e, image: "  " } : e));
    const out = formToDefinition({ ...form, environments: { list, defaultType: "docker" } });
    expect("image" in (out.environment as Json)).toBe(false);
    expect("image" in (out.supportedEnvironments as Json[])[1]!).toBe(false);
  });

  test("an empty list writes a standard environment and an empty list, which the schema accepts", () => {
    const form = definitionToForm(template(), { template: true });
    const out = formToDefinition({ ...form, environments: { list: [], defaultType: "" } });
    expect(out.environment).toEqual({ type: "standard" });
    expect(out.supportedEnvironments).toEqual([]);
    expect(templateSchema.safeParse(out).success).toBe(true);
  });

  test("a template with no list gets one written: its environment", () => {
    const { supportedEnvironments: _s, ...bare } = template({ environment: { type: "tty" } });
    const out = formToDefinition(definitionToForm(bare, { template: true }));
    expect(out.supportedEnvironments).toEqual([{ type: "tty" }]);
    expect(out.environment).toEqual({ type: "tty" });
  });

  test("what is written passes the template schema", () => {
    const form = definitionToForm(template(), { template: true });
    expect(templateSchema.safeParse(formToDefinition(form)).success).toBe(true);
  });
});

describe("readme", () => {
  test("kept when the template has one, edited, and written back", () => {
    const form = definitionToForm(template({ readme: "# Paper\n\nA **fast** server." }), { template: true });
    expect(form.readme).toBe("# Paper\n\nA **fast** server.");
    expect(formToDefinition(form).readme).toBe("# Paper\n\nA **fast** server.");
    expect(formToDefinition({ ...form, readme: "Changed" }).readme).toBe("Changed");
  });

  test("a readme emptied in the editor is written as empty, not dropped", () => {
    const form = definitionToForm(template({ readme: "Something" }), { template: true });
    const out = formToDefinition({ ...form, readme: "" });
    expect(out.readme).toBe("");
  });

  test("omitted when the template has none and none was written; added when one was", () => {
    const form = definitionToForm(template(), { template: true });
    expect(form.readme).toBe("");
    expect("readme" in formToDefinition(form)).toBe(false);
    expect(formToDefinition({ ...form, readme: "New" }).readme).toBe("New");
  });
});
