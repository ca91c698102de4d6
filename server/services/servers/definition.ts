// A new server's definition: its template with the chosen environment, the given variable values
// (each checked by core's checkVariableValue: type, options, required, no control characters;
// variable groups' conditions as core/definition/variable-groups reads them)
// the three run flags and, from an administrator, the resource limits. A network console's
// password variable the creator left alone gets a random value (core/definition/console-password).
import { KilnError } from "../../../core/errors";
import { checkVariableValue, environmentSchema, ownVariable, templateSchema, type Environment, type ResourceLimits, type ServerDefinition, type Template } from "../../../core/definition";
import { formValues, hiddenVariables } from "../../../core/definition/variable-groups";
import { consolePasswordVariables } from "../../../core/definition/console-password";
import { randomBytes } from "node:crypto";

export interface DefinitionChoices {
  environment?: { type: string } & Record<string, unknown>;
  variables: Record<string, string | number | boolean>;
  autostart: boolean;
  autorestart: boolean;
  autorecover: boolean;
  /** An administrator's limits; without them the template's (if it has any) hold. */
  limits?: ResourceLimits;
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

export function buildDefinition(template: Template, choices: DefinitionChoices): ServerDefinition {
  for (const name of Object.keys(choices.variables)) {
    if (!ownVariable(template.data, name)) throw new KilnError("ErrNotFound", { field: name }, `the template has no variable ${name}`);
  }
  // A network console's password the creator did not choose is a random one of this server's own.
  // (Where the template's rules for the variable refuse such a value, its default stays.)
  const own = Object.fromEntries(consolePasswordVariables(template).flatMap((name) => (acceptable(name, template.data[name]!) ? [[name, randomPassword()]] : [])));
  const chosen = (name: string) => (Object.hasOwn(choices.variables, name) ? choices.variables[name] : own[name]);
  // Variable groups (PufferPanel v3): a value sent for a variable whose groups' `if` does not hold
  // for the values chosen is kept, as PufferPanel keeps what its form sends, but it is not
  // required (the form did not show it), here as in checkDefinitionValues.
  const hidden = hiddenVariables(template.data, template.groups, formValues(template.data, choices.variables));
  const data = Object.fromEntries(
    Object.entries(template.data).map(([name, variable]) => [name, { ...variable, value: checkVariableValue(name, hidden.has(name) ? { ...variable, required: false } : variable, chosen(name)) }]),
  );
  const { supportedEnvironments: _offered, ...rest } = template;
  return templateSchema.parse({
    ...rest,
    data,
    environment: chooseEnvironment(template, choices.environment),
    run: { ...template.run, autostart: choices.autostart, autorestart: choices.autorestart, autorecover: choices.autorecover },
    ...(choices.limits ? { limits: choices.limits } : {}),
  });
}

const randomPassword = () => randomBytes(18).toString("base64url");

function acceptable(name: string, variable: Template["data"][string]): boolean {
  try {
    checkVariableValue(name, variable, randomPassword());
    return true;
  } catch {
    return false;
  }
}

/** The address parts shown in server lists: the "ip" and "port" variables. */
export function addressParts(definition: Pick<ServerDefinition, "data">): { ip: string | null; port: number | null } {
  const ip = definition.data.ip?.value;
  const port = Number(definition.data.port?.value);
  return { ip: typeof ip === "string" && ip !== "" ? ip : null, port: Number.isInteger(port) && port > 0 && port < 65536 ? port : null };
}
