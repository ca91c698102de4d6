// The json and yaml parsers: the document read whole and the replacements set at their paths
// (./tree-paths), each value keeping the type of the one it replaces. A JSON file is written back
// by the serializer, its numbers as they were spelled (read as JSON.rawJSON: 1.50 stays 1.50 and a
// 64-bit id keeps its digits). A YAML file is edited where its values are (./yaml-in-place), so
// its comments and every other scalar's spelling stay; when that cannot be (a key that was not
// there) it is written anew, as Wings does, and its comments are lost. Either way a value is
// quoted as its format needs: a newline, a colon or a bracket stays one scalar, never structure.
import { applyToTree, type Change } from "./tree-paths";
import { editYamlInPlace } from "./yaml-in-place";
import { ConfigFormatError, type Replacement } from "./types";

function parseOrFail<T>(parse: () => T, what: string): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigFormatError(`the file is not ${what}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** An empty (new) file is an empty object: the replacements create what they name. */
function rootOf(parsed: unknown, what: string): object {
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object") throw new ConfigFormatError(`the file holds a single value, not ${what} document with keys`);
  return parsed;
}

/** JSON.parse's reviver: a number as its source text, written back as it was. */
function keepNumberSpelling(_key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === "number" && context?.source !== undefined ? (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(context.source) : value;
}

export function rewriteJson(text: string, replacements: readonly Replacement[]): string {
  const root = rootOf(text.trim() === "" ? null : parseOrFail(() => JSON.parse(text, keepNumberSpelling) as unknown, "JSON"), "a JSON");
  applyToTree(root, replacements);
  // Four spaces, as Wings writes it.
  return `${JSON.stringify(root, null, 4)}\n`;
}

export function rewriteYaml(text: string, replacements: readonly Replacement[]): string {
  const parsed = parseOrFail(() => Bun.YAML.parse(text), "YAML");
  if (Array.isArray(parsed) && text.includes("\n---")) throw new ConfigFormatError("the file holds several YAML documents");
  const root = rootOf(parsed, "a YAML");
  const changes: Change[] = [];
  applyToTree(root, replacements, changes);
  return editYamlInPlace(text, changes) ?? Bun.YAML.stringify(root, null, 2) + "\n";
}
