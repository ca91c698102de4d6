// An egg's config.files (a JSON object, in every egg version written as a JSON text) as Kiln
// configfile steps, one per file, run before every start. The panel turns each file's `find` map
// into Wings' replacement list the same way (Pelican's EggConfigurationService): a key with a text,
// number or boolean is one replacement; a key with an object is one replacement per entry, its
// key the value the line must hold (`if_value`) and its value the replacement. Placeholders
// (`{{server.build.default.port}}`, `{{env.X}}`, `{{config.docker.interface}}`, …) stay as the egg
// writes them: the step resolves them when it runs. Parsers are Wings' (`yml` is its other name
// for yaml). A file outside the server's folder is refused: the whole egg, not just the file.
import { KilnError } from "../errors";
import { CONFIG_PARSERS, type ConfigParser } from "./constants";
import type { ImportNote } from "./import-notes";
import { isObject, type Json } from "./v2";

/** Most files an egg may rewrite, and most replacements in one file: far above any egg's. */
const MAX_FILES = 64;
const MAX_REPLACEMENTS = 256;

/** A JSON text (as eggs write config.*) or the object itself; undefined when neither. */
export function jsonField(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.trim() === "") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** The file name as Wings joins it to the server's folder, or undefined when it would leave it. */
export function configFilePath(name: string): string | undefined {
  const path = name.replace(/\\/g, "/").replace(/^\/+/, "");
  if (path === "" || /[\u0000-\u001f]/.test(path)) return undefined;
  return path.split("/").some((segment) => segment === "..") ? undefined : path;
}

const refuse = (field: string, expected: string) => new KilnError("ErrTemplateFieldInvalid", { field, expected }, `invalid egg: ${field}: ${expected}`);

/** The configfile steps of `files` (config.files); `rename` maps `{{env.X}}` names renamed on import. */
export function configFileSteps(files: unknown, rename: (text: string) => string, notes: ImportNote[]): Json[] {
  const parsed = jsonField(files);
  if (parsed === undefined || parsed === null || (Array.isArray(parsed) && parsed.length === 0)) return [];
  if (!isObject(parsed)) throw refuse("config.files", "a map of file names to {parser, find}");
  const entries = Object.entries(parsed);
  if (entries.length > MAX_FILES) throw refuse("config.files", `at most ${MAX_FILES} files`);
  return entries.flatMap(([name, spec]): Json[] => {
    const field = `config.files.${name}`;
    const file = configFilePath(name);
    if (file === undefined) throw refuse(field, "a file inside the server's folder");
    if (!isObject(spec)) throw refuse(field, "{parser, find}");
    const parser = String(spec.parser ?? "").toLowerCase() === "yml" ? "yaml" : String(spec.parser ?? "").toLowerCase();
    if (!(CONFIG_PARSERS as readonly string[]).includes(parser)) throw refuse(`${field}.parser`, `a parser: one of ${CONFIG_PARSERS.join(", ")}`);
    const replace: Json[] = [];
    for (const [match, value] of Object.entries(isObject(spec.find) ? spec.find : {})) {
      if (isObject(value)) {
        for (const [ifValue, replaceWith] of Object.entries(value)) replace.push({ match, ifValue, value: rename(String(replaceWith ?? "")) });
      } else if (value === null || typeof value === "object") {
        notes.push({ rule: "dropped", field: `${field}.find.${match}`, detail: JSON.stringify(value) });
      } else {
        replace.push({ match, value: rename(String(value)) });
      }
    }
    if (replace.length > MAX_REPLACEMENTS) throw refuse(`${field}.find`, `at most ${MAX_REPLACEMENTS} replacements`);
    for (const key of Object.keys(spec)) if (key !== "parser" && key !== "find") notes.push({ rule: "dropped", field: `${field}.${key}` });
    return [{ type: "configfile", file, parser: parser as ConfigParser, replace }];
  });
}
