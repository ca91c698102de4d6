// PufferPanel v3 templates (the `v3` branch of pufferpanel/templates) read into Kiln's template
// format. Kiln's format speaks v3's features itself (the `host` environment, `if` conditions on
// steps, run.command entries and variable groups, `run.stdin` consoles, the v3 step types; see
// ./template, ./steps), so the structure is kept as written; what the conversion writes out is
// how PufferPanel reads the variables (./v2's rules, and v3 reads an empty integer as 0), a
// missing supportedEnvironments, and the variables PufferPanel's substitute-then-split turns into
// several arguments (./word-split). `icon`, `stats`, `query` and other fields are kept.
import type { ImportNote } from "./import-notes";
import { convertVariables, fillSupportedEnvironments, isObject, type Json } from "./v2";
import { markSplitWords } from "./word-split";

const V3_TOP_LEVEL = ["icon", "groups", "stats", "query", "uninstall"];

/** Markers of v3: its environment name, conditions, command entries, consoles and top-level fields. */
export function looksLikeV3Template(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (V3_TOP_LEVEL.some((key) => key in value)) return true;
  const environments = [value.environment, ...(Array.isArray(value.supportedEnvironments) ? value.supportedEnvironments : [])];
  if (environments.some((e) => isObject(e) && e.type === "host")) return true;
  const run = isObject(value.run) ? value.run : {};
  if ("stdin" in run || "expectedExitCode" in run) return true;
  if (Array.isArray(run.command) && run.command.some(isObject)) return true;
  const steps = [value.install, run.pre, run.post].flatMap((s) => (Array.isArray(s) ? s : []));
  return steps.some((s) => isObject(s) && "if" in s);
}

/** A v3 template as Kiln template JSON, for the schema to parse. Never throws. */
export function convertV3Template(value: unknown, notes: ImportNote[]): Json {
  const template: Json = isObject(value) ? structuredClone(value) : {};
  template.data = convertVariables(template.data, { emptyIntegerIsZero: true }, notes);
  fillSupportedEnvironments(template, notes);
  markSplitWords(template, notes);
  return template;
}
