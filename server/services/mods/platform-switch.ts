// Which other platforms a server can switch to from the Mods tab, and the definition a switch
// gives it. A platform is a template that installs it: one the administrator keeps (the panel's
// templates), of a Minecraft Java type, whose addons statement names another platform whose
// add-ons go in the same folder (Paper ↔ Purpur ↔ Spigot for plugins, Fabric ↔ Quilt ↔ Forge ↔
// NeoForge for mods; from vanilla, which has none, any) and a Minecraft version variable that takes the server's version, and that
// offers the server's environment. The new definition is that template built as creation builds
// one: the server's environment type (the template's own settings for it, but the network an
// administrator set), its run flags, the
// limits an administrator set, the values of the variables a user may edit in both templates
// (the Minecraft version, memory, …), but for the new template's loader version, which
// starts at its default (a Paper build means nothing to Purpur), an administrator's values where
// both templates agree (`carries`), and the server's own ports and address, whatever the template
// lets users edit. The node checks the rest again.
import { KilnError } from "../../../core/errors";
import { checkVariableValue, dockerNetwork, ownVariable, variableValues, type ServerDefinition, type Template } from "../../../core/definition";
import { loaderVariable, versionVariable } from "../../../core/definition/addons";
import { keepsPorts, portVariables } from "../../../core/definition/server-ports";
import { switchable, type PlatformChoice } from "../../../core/mods/types";
import type { Db } from "../../../db/client";
import { allTemplates } from "../templates";
import { buildDefinition, offeredEnvironments } from "../servers/definition";

/** The type of template a platform switch considers (Minecraft Java servers). */
const MINECRAFT_JAVA = "minecraft-java";

/** `template` built for the server that runs `current`; null when it cannot take the server (another folder, no version variable, the version or environment not taken). */
export function switchedDefinition(current: ServerDefinition, template: Template, previous?: Template): ServerDefinition | null {
  const [from, to] = [current.addons?.platform, template.addons?.platform];
  const fromVersion = versionVariable(current.addons);
  const toVersion = versionVariable(template.addons);
  if (!from || !to || !switchable(from, to) || !fromVersion || !toVersion) return null;
  const loader = loaderVariable(template.addons);
  try {
    const built = rebuiltDefinition(current, template, {}, loader ? [loader] : [], previous);
    // The Minecraft version stays: a template whose variable did not take it is no choice.
    return variableValues(built)[toVersion] === variableValues(current)[fromVersion] ? built : null;
  } catch {
    return null;
  }
}

/**
 * `template` built for the server that runs `current`, as creation builds one: the server's
 * environment type (the template's own settings for it, but the server's docker network), run flags and limits; `values` set; the
 * values carried over (`carries`), but for those in `fresh`, which start at the template's
 * defaults. `previous`: the template the server was built from, when the panel still has it.
 * Throws the catalogue error of what it cannot take.
 */
export function rebuiltDefinition(current: ServerDefinition, template: Template, values: Record<string, string | number | boolean>, fresh: readonly string[], previous?: Template): ServerDefinition {
  if (!offeredEnvironments(template).some((e) => e.type === current.environment.type)) throw new KilnError("ErrFieldNotEqual", { field1: "environment", field2: offeredEnvironments(template).map((e) => e.type).join(", ") });
  const had = variableValues(current);
  const carried: Record<string, string | number | boolean> = {};
  for (const [name, variable] of Object.entries(template.data)) {
    if (!carries(name, variable, current, previous) || fresh.includes(name) || Object.hasOwn(values, name) || !Object.hasOwn(had, name)) continue;
    try {
      carried[name] = checkVariableValue(name, variable, had[name]) as string | number | boolean;
    } catch {
      // A value the new template does not take: its default stands.
    }
  }
  const { limits: _own, ...built } = buildDefinition(template, {
    environment: { type: current.environment.type, ...dockerNetwork(current.environment) },
    variables: { ...carried, ...values },
    autostart: current.run.autostart,
    autorestart: current.run.autorestart,
    autorecover: current.run.autorecover,
  });
  // The limits are the administrator's for this server, never the new template's (none stays none).
  return onOwnPorts(current.limits ? { ...built, limits: current.limits } : built, current);
}

/**
 * Whether the server's value of `name` goes on into `variable` of the new template:
 * - a value users may edit, in both templates (the Minecraft version, memory, …);
 * - a value only an administrator may set, in both templates, where the template the server was
 *   built from has the same default as the new one: the switch does not mean to change it (JVM
 *   flags an administrator set stay; a download address that differs between Paper and Purpur
 *   takes the new one). Never a value users could set into one they may not: a template may put
 *   those where a user's value must not go. Without the old template (deleted since), such a
 *   value starts at the new default.
 */
function carries(name: string, variable: Template["data"][string], current: ServerDefinition, previous: Template | undefined): boolean {
  const was = ownVariable(current.data, name);
  if (!was) return false;
  if (variable.userEdit) return Boolean(was.userEdit);
  const before = previous ? ownVariable(previous.data, name) : undefined;
  return !was.userEdit && before !== undefined && !before.userEdit && sameValue(before.value, variable.value);
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * `built` on the server's own ports, never the template's defaults (a template may not let users
 * edit its port, and then none is carried): its port variables take the values `current`'s hold
 * (the allocations fill them, the primary first), the rest of those are its extra ports, and its
 * address stays. A template that would still publish other ports (a port variable more) cannot
 * take the server (ErrFieldNotBetween on template): a switch must not move it onto another's port
 * (core keepsPorts; a server that publishes none takes the template's, as a new one would).
 */
function onOwnPorts(built: ServerDefinition, current: ServerDefinition): ServerDefinition {
  const held = [...portVariables(current.data).map((name) => current.data[name]!.value), ...(current.extraPorts ?? [])].filter((port) => /^\d{1,5}$/.test(String(port).trim()));
  const next = structuredClone(built);
  const names = portVariables(next.data);
  names.slice(0, held.length).forEach((name, i) => (next.data[name]!.value = typeof next.data[name]!.value === "number" ? Number(held[i]) : String(held[i])));
  const extra = held.slice(names.length).map(Number);
  if (extra.length > 0) next.extraPorts = extra;
  else delete next.extraPorts;
  if (current.data.ip && next.data.ip) next.data.ip.value = current.data.ip.value;
  if (!keepsPorts(current, next)) throw new KilnError("ErrFieldNotBetween", { field: "template" });
  return next;
}

/** The platforms `current` can switch to, by the templates that install them (by display name). */
export async function platformChoices(db: Db, current: ServerDefinition): Promise<{ choice: PlatformChoice; definition: ServerDefinition }[]> {
  if (!current.addons?.platform) return [];
  const found: { choice: PlatformChoice; definition: ServerDefinition }[] = [];
  const templates = await allTemplates(db);
  const previous = builtFrom(templates, current);
  for (const template of templates.filter((t) => t.type === MINECRAFT_JAVA)) {
    const definition = switchedDefinition(current, template, previous);
    if (definition?.addons?.platform) found.push({ choice: { template: template.id, platform: definition.addons.platform, display: template.display }, definition });
  }
  // By display name, as the template list shows them.
  return found.sort((a, b) => a.choice.display.localeCompare(b.choice.display));
}

/**
 * The template `current` was last built from, while the panel still has it: a definition keeps its
 * template's name (creation and a switch both build from the template as stored, named by its id).
 */
export function builtFrom(templates: readonly (Template & { id: string })[], current: ServerDefinition): Template | undefined {
  return current.name ? templates.find((t) => t.id === current.name) : undefined;
}
