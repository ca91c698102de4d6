// The json and yaml parsers: the document read whole, the replacements set at their paths
// (./tree-paths), the document written back by the serializer, which quotes every string as
// its format needs: a value with a newline, a colon or a bracket stays one scalar, never
// structure. Comments in a YAML file are lost, as with Wings, which re-marshals it too.
import { applyToTree } from "./tree-paths";
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

export function rewriteJson(text: string, replacements: readonly Replacement[]): string {
  const root = rootOf(text.trim() === "" ? null : parseOrFail(() => JSON.parse(text) as unknown, "JSON"), "a JSON");
  applyToTree(root, replacements);
  // Four spaces, as Wings writes it.
  return `${JSON.stringify(root, null, 4)}\n`;
}

export function rewriteYaml(text: string, replacements: readonly Replacement[]): string {
  const parsed = parseOrFail(() => Bun.YAML.parse(text), "YAML");
  if (Array.isArray(parsed) && text.includes("\n---")) throw new ConfigFormatError("the file holds several YAML documents");
  const root = rootOf(parsed, "a YAML");
  applyToTree(root, replacements);
  return Bun.YAML.stringify(root, null, 2) + "\n";
}
