// The variables that hold a network console's password (run.stdin, or a v3 command entry's stdin,
// of type telnet, rcon or rconws, naming "${name}" in its password). A template's default there
// is the same on every server made from it, and a console port is often reachable from outside
// (RCON is meant to be), so a new server gets a random password of its own there unless its
// creator chose one (server/services/servers/definition).
import { referencedNames } from "./substitute";
import type { StdinConfig, Template } from "./template";

export function consolePasswordVariables(template: Pick<Template, "run" | "data">): string[] {
  const consoles: Array<StdinConfig | undefined> = [template.run.stdin];
  if (Array.isArray(template.run.command)) for (const entry of template.run.command) consoles.push(entry.stdin);
  const names = new Set<string>();
  for (const stdin of consoles) {
    if (!stdin || stdin.type === "stdin") continue;
    for (const name of referencedNames(stdin.password ?? "")) {
      const variable = Object.hasOwn(template.data, name) ? template.data[name] : undefined;
      // A password picked from a list (options) or not a text is the template's to decide.
      if (variable && variable.type === "string" && !variable.options?.length) names.add(name);
    }
  }
  return [...names];
}
