// A new server's definition: its template with the chosen environment, the given variable values
// (checked against each variable's type, options and required rule) and the three run flags.
import { KilnError } from "../../../core/errors";
import { environmentSchema, templateSchema, type Environment, type ServerDefinition, type Template, type Variable } from "../../../core/definition";

export interface DefinitionChoices {
  environment?: { type: string } & Record<string, unknown>;
  variables: Record<string, string | number | boolean>;
  autostart: boolean;
  autorestart: boolean;
  autorecover: boolean;
}

/** The environments a template offers: its supported list, or its default when the list is empty. */
export function offeredEnvironments(template: Template): Environment[] {
  return template.supportedEnvironments.length > 0 ? template.supportedEnvironments : [template.environment];
}

function chooseEnvironment(template: Template, wanted: DefinitionChoices["environment"]): Environment {
  const offered = offeredEnvironments(template);
  const type = wanted?.type ?? template.environment.type;
  const base = offered.find((e) => e.type === type);
  if (!base) throw new KilnError("ErrFieldNotEqual", { field1: "environment", field2: offered.map((e) => e.type).join(", ") }, `environment ${type} is not one the template supports`);
  const parsed = environmentSchema.safeParse({ ...base, ...wanted });
  if (!parsed.success) throw new KilnError("ErrInvalidJson", { field: `environment.${parsed.error.issues[0]?.path.join(".")}` });
  return parsed.data;
}

/** A submitted value as the variable's type wants it; form posts send everything as text. */
export function coerceVariable(name: string, variable: Variable, raw: string | number | boolean | undefined): string | number | boolean {
  const value = raw === undefined ? variable.value : raw;
  const empty = value === "" || value === undefined;
  if (empty && variable.required && variable.type !== "boolean") throw new KilnError("ErrFieldRequired", { field: name });
  switch (variable.type) {
    case "integer": {
      if (empty) return "";
      const n = typeof value === "number" ? value : Number(String(value).trim());
      if (!Number.isInteger(n)) throw new KilnError("ErrFieldRequired", { field: name }, `${name} must be a whole number`);
      return n;
    }
    case "boolean":
      return value === true || value === "true" || value === "on" || value === 1;
    case "option": {
      const options = variable.options ?? [];
      const match = options.find((o) => String(o.value) === String(value));
      if (!match && !(empty && !variable.required)) throw new KilnError("ErrFieldNotEqual", { field1: name, field2: options.map((o) => String(o.value)).join(", ") });
      return match ? match.value : "";
    }
    default:
      return typeof value === "string" ? value : String(value);
  }
}

export function buildDefinition(template: Template, choices: DefinitionChoices): ServerDefinition {
  for (const name of Object.keys(choices.variables)) {
    if (!template.data[name]) throw new KilnError("ErrNotFound", { field: name }, `the template has no variable ${name}`);
  }
  const data = Object.fromEntries(
    Object.entries(template.data).map(([name, variable]) => [name, { ...variable, value: coerceVariable(name, variable, choices.variables[name]) }]),
  );
  const { supportedEnvironments: _offered, ...rest } = template;
  return templateSchema.parse({
    ...rest,
    data,
    environment: chooseEnvironment(template, choices.environment),
    run: { ...template.run, autostart: choices.autostart, autorestart: choices.autorestart, autorecover: choices.autorecover },
  });
}

/** The address parts shown in server lists (spec section 2): the "ip" and "port" variables. */
export function addressParts(definition: Pick<ServerDefinition, "data">): { ip: string | null; port: number | null } {
  const ip = definition.data.ip?.value;
  const port = Number(definition.data.port?.value);
  return { ip: typeof ip === "string" && ip !== "" ? ip : null, port: Number.isInteger(port) && port > 0 && port < 65536 ? port : null };
}
