// Setting values at dotted paths in a parsed JSON or YAML document, as Wings does it (gabs'
// SetP): "a.b.c" walks objects, creating missing ones; a number walks into an array; "name[2]"
// is an array element (the array made when index 0 is asked of a missing one); one ".*" sets the
// rest of the path in every child of what comes before it ("servers.*.address"). A value that is
// a whole integer is written as a number, anything else as a string, as Wings writes them.
import { compilePattern, PatternError, type UserPattern } from "../../../core/patterns";
import { ConfigFormatError, REGEX_PREFIX, type Replacement } from "./types";

type Tree = Record<string, unknown> | unknown[];

/** Keys that would reach an object's prototype instead of a field of its own. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function isTree(value: unknown): value is Tree {
  return typeof value === "object" && value !== null;
}

/** gabs' DotPathToSlice: split on ".", then "~1" is a dot and "~0" a tilde inside a key. */
function segments(path: string): string[] {
  return path.split(".").map((part) => {
    const key = part.replaceAll("~1", ".").replaceAll("~0", "~");
    if (UNSAFE_KEYS.has(key)) throw new ConfigFormatError(`the path ${path} names ${key}, which no config file may use`);
    return key;
  });
}

/** Go's strconv.Atoi, within what a JSON number holds exactly. */
function typed(value: string): string | number {
  if (!/^[+-]?\d+$/.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

function setAt(root: unknown, path: string, value: unknown): void {
  const parts = segments(path);
  let node = root;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (Array.isArray(node)) {
      if (part === "-" && last) {
        node.push(value);
        return;
      }
      const index = Number(part);
      if (!/^\d+$/.test(part) || index >= node.length) throw new ConfigFormatError(`${path}: no element ${part} in the array there`);
      if (last) node[index] = value;
      else node = node[index];
    } else if (isTree(node)) {
      const object = node as Record<string, unknown>;
      if (last) object[part] = value;
      else {
        if (object[part] === undefined || object[part] === null) object[part] = {};
        node = object[part];
      }
    } else {
      throw new ConfigFormatError(`${path}: ${parts.slice(0, i).join(".")} holds a value, not an object`);
    }
  }
}

function lookup(root: unknown, path: string): { found: boolean; value?: unknown } {
  let node = root;
  for (const part of segments(path)) {
    if (Array.isArray(node) && /^\d+$/.test(part) && Number(part) < node.length) node = node[Number(part)];
    else if (isTree(node) && !Array.isArray(node) && Object.hasOwn(node, part)) node = (node as Record<string, unknown>)[part];
    else return { found: false };
  }
  return { found: true, value: node };
}

const ARRAY_ELEMENT = /^([^[\]]+)\[(\d+)](\..+)?$/;

/** Wings' setValueAtPath: the "name[i]" form, else a plain path. */
function setValue(root: unknown, path: string, value: unknown): void {
  const element = ARRAY_ELEMENT.exec(path);
  if (!element) return setAt(root, path, value);
  const [, arrayPath, indexText, rest] = element;
  const index = Number(indexText);
  let array = lookup(root, arrayPath!).value;
  if (!Array.isArray(array) || index >= array.length) {
    if (index !== 0) throw new ConfigFormatError(`${path}: no element ${index} in the array there`);
    array = [rest ? {} : null];
    setAt(root, arrayPath!, array);
  }
  if (rest) setAt((array as unknown[])[index], rest.slice(1), value);
  else (array as unknown[])[index] = value;
}

/** A value as its text, to compare with an ifValue. */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One replacement at one path. With an ifValue only an existing value is replaced: one equal to
 * it, or, with "regex:", one the expression matches (rewritten by it, $1 and all). Wings means
 * this too, though its own check compares the whole document (and inverts the regex case).
 */
function replaceAt(root: unknown, path: string, replacement: Replacement): void {
  const { ifValue } = replacement;
  if (!ifValue) return setValue(root, path, typed(replacement.value));
  const current = lookup(root, path);
  if (!current.found) return;
  const text = textOf(current.value);
  if (ifValue.startsWith(REGEX_PREFIX)) {
    // RE2's linear-time engine (core/patterns), as Wings runs it on Go's: the value may be a user's.
    let pattern: UserPattern;
    try {
      pattern = compilePattern(ifValue.slice(REGEX_PREFIX.length));
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      throw new ConfigFormatError(`${replacement.match}: ${ifValue} is not a regular expression Kiln can run (${error.reason})`);
    }
    if (pattern.test(text)) setValue(root, path, typed(pattern.replaceAll(text, replacement.value)));
    return;
  }
  if (text === ifValue) setValue(root, path, typed(replacement.value));
}

function childrenOf(node: unknown): unknown[] {
  if (Array.isArray(node)) return node;
  return isTree(node) ? Object.values(node) : [];
}

/** Every replacement applied to `root` in order (changed in place). */
export function applyToTree(root: unknown, replacements: readonly Replacement[]): void {
  for (const replacement of replacements) {
    const wildcard = replacement.match.indexOf(".*");
    if (wildcard === -1) {
      replaceAt(root, replacement.match, replacement);
      continue;
    }
    const before = replacement.match.slice(0, wildcard).replace(/^\.+|\.+$/g, "");
    const after = replacement.match.slice(wildcard + 2).replace(/^\.+|\.+$/g, "");
    const parent = before === "" ? { found: true, value: root } : lookup(root, before);
    if (!parent.found) continue;
    for (const child of childrenOf(parent.value)) {
      if (after === "") throw new ConfigFormatError(`${replacement.match}: a wildcard needs a path after it`);
      replaceAt(child, after, replacement);
    }
  }
}
