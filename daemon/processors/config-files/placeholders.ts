// The placeholders of a configfile step's match and value, resolved in one pass over the text the
// template wrote: Kiln's ${variable} and the egg forms Pterodactyl's panel and Wings resolve
// ({{server.build.default.port}}, {{env.X}}, {{config.docker.interface}}, and Pelican's newer
// {{server.allocations.default.port}} spellings). One pass means a value is never read again:
// a variable holding "{{env.SECRET}}" is written as those characters, not as the secret.
import type { Values } from "../../../core/definition/substitute";
import type { EggFacts } from "../../../core/definition/egg-facts";

export interface PlaceholderFacts {
  values: Values;
  facts: EggFacts;
  /** The address of the node as its servers' containers reach it ({{config.docker.interface}}). */
  dockerInterface: string;
}

/** Turns each value into the text written in its place (escaping it for where it goes), or throws. */
export type ValueFilter = (value: string, placeholder: string) => string;

const PLACEHOLDER = /\$\{([A-Za-z0-9_.-]+)\}|\{\{\s?([\w.-]+)\s?\}\}/g;

/** A variable by any of the names eggs give the environment map; Pelican answers "" for one the server lacks. */
const VARIABLE_PREFIXES = ["env.", "server.build.env.", "server.build.environment.", "server.environment."];

function eggValue(key: string, facts: PlaceholderFacts): string | undefined {
  switch (key) {
    case "server.build.default.port":
    case "server.allocations.default.port":
    case "server.build.env.SERVER_PORT":
    case "env.SERVER_PORT":
      return facts.facts.port;
    case "server.build.default.ip":
    case "server.allocations.default.ip":
    case "server.build.env.SERVER_IP":
    case "env.SERVER_IP":
      return facts.facts.ip;
    case "server.build.memory":
    case "server.build.memory_limit":
    case "server.build.env.SERVER_MEMORY":
    case "env.SERVER_MEMORY":
      return facts.facts.memory;
    case "server.uuid":
      return facts.facts.uuid;
    case "config.docker.interface":
      return facts.dockerInterface;
  }
  const prefix = VARIABLE_PREFIXES.find((p) => key.startsWith(p));
  if (!prefix) return undefined;
  const name = key.slice(prefix.length);
  return Object.hasOwn(facts.values, name) ? String(facts.values[name]) : "";
}

/**
 * `text` with its placeholders resolved. `{{…}}` forms outside server., env. and config. are
 * left as written (the panels do the same); one of those three this node does not know is an
 * error rather than an empty value, so a mapping gap is told, never written silently.
 */
export function resolvePlaceholders(text: string, facts: PlaceholderFacts, filter: ValueFilter = (value) => value): string {
  return text.replace(PLACEHOLDER, (whole, variable: string | undefined, egg: string | undefined) => {
    if (variable !== undefined) return Object.hasOwn(facts.values, variable) ? filter(String(facts.values[variable]), whole) : whole;
    const key = egg!;
    const value = eggValue(key, facts);
    if (value !== undefined) return filter(value, whole);
    if (/^(server|env|config)\./.test(key)) throw new Error(`this node does not know the placeholder ${whole}`);
    return whole;
  });
}
