// Setting values at dotted paths in a parsed JSON or YAML document, as Wings does it (gabs'
// SetP): "a.b.c" walks objects, creating missing ones; a number walks into an array; "name[2]"
// is an array element (the array made when index 0 is asked of a missing one); one ".*" sets the
// rest of the path in every child of what comes before it ("servers.*.address").
//
// A value keeps the type of the one it replaces: a string stays a string (a password "0777" is
// not the number 777), a number stays a number and a boolean a boolean when the text is one. A new
// key is typed as Wings types it, a whole number as a number, but only one written as JSON writes
// it ("0777", "+5" and "007" stay strings). Numbers a JSON file held as JSON.rawJSON (./structured)
// are compared and kept by their own spelling. Each value set is told to `changes`, with its path
// from the root, so the YAML writer can edit the file in place.
import { compilePattern, PatternError, type UserPattern } from "../../../core/patterns";
import { ConfigFormatError, REGEX_PREFIX, type Replacement } from "./types";

type Tree = Record<string, unknown> | unknown[];

/** A value set by the replacements: where, what, and whether anything was there before (a scalar). */
export interface Change {
  path: Array<string | number>;
  value: string | number | boolean;
  /** false when the key was missing or held a list or a map: not an edit of one scalar. */
  replacedScalar: boolean;
}

const isRawJson = (value: unknown): value is { rawJSON: string } => (JSON as unknown as { isRawJSON(v: unknown): boolean }).isRawJSON(value);

/** Keys that would reach an object's prototype instead of a field of its own. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function isTree(value: unknown): value is Tree {
  return typeof value === "object" && value !== null && !isRawJson(value);
}

/** gabs' DotPathToSlice: split on ".", then "~1" is a dot and "~0" a tilde inside a key. */
function segments(path: string): string[] {
  return path.split(".").map((part) => {
    const key = part.replaceAll("~1", ".").replaceAll("~0", "~");
    if (UNSAFE_KEYS.has(key)) throw new ConfigFormatError(`the path ${path} names ${key}, which no config file may use`);
    return key;
  });
}

const WHOLE_NUMBER = /^-?(0|[1-9]\d*)$/;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `text` as the value it replaces was typed (see the header); `existing` undefined when there was none. */
function typed(text: string, existing: unknown): string | number | boolean {
  const number = Number(text);
  if (typeof existing === "string") return text;
  if (typeof existing === "boolean" && /^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  if ((typeof existing === "number" || isRawJson(existing)) && JSON_NUMBER.test(text) && Number.isFinite(number)) return number;
  return WHOLE_NUMBER.test(text) && Number.isSafeInteger(number) ? number : text;
}

const isScalar = (value: unknown) => value !== undefined && value !== null && !isTree(value);

/** Where a value is set, from the root of the document, and what is told of it. */
interface Target {
  base: Array<string | number>;
  changes?: Change[];
}

/** Sets what `make` gives for the value now at `path` (undefined when missing), making missing objects on the way. */
function setAt(root: unknown, path: string, make: (existing: unknown) => unknown, target: Target): void {
  const parts = segments(path);
  const at: Array<string | number> = [...target.base];
  const set = (holder: Record<string | number, unknown>, key: string | number) => {
    const existing = holder[key];
    const value = make(existing);
    holder[key] = value;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") target.changes?.push({ path: [...at, key], value, replacedScalar: isScalar(existing) });
  };
  let node = root;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (Array.isArray(node)) {
      if (part === "-" && last) {
        set(node as unknown as Record<number, unknown>, node.length);
        return;
      }
      const index = Number(part);
      if (!/^\d+$/.test(part) || index >= node.length) throw new ConfigFormatError(`${path}: no element ${part} in the array there`);
      if (last) set(node as unknown as Record<number, unknown>, index);
      else {
        node = node[index];
        at.push(index);
      }
    } else if (isTree(node)) {
      const object = node as Record<string, unknown>;
      if (last) set(object, part);
      else {
        if (object[part] === undefined || object[part] === null) object[part] = {};
        node = object[part];
        at.push(part);
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

/** `path` from `node` with each array index as a number (where a change sits, for the YAML writer). */
function concretePath(node: unknown, path: string): Array<string | number> {
  return segments(path).map((part) => {
    const index = Array.isArray(node) ? Number(part) : part;
    node = isTree(node) ? (node as Record<string | number, unknown>)[index] : undefined;
    return index;
  });
}

/** Wings' setValueAtPath: the "name[i]" form, else a plain path; `text` typed as the value it replaces. */
function setValue(root: unknown, path: string, text: string, target: Target): void {
  const asTyped = (existing: unknown) => typed(text, existing);
  const element = ARRAY_ELEMENT.exec(path);
  if (!element) return setAt(root, path, asTyped, target);
  const [, arrayPath, indexText, rest] = element;
  const index = Number(indexText);
  let array = lookup(root, arrayPath!).value;
  if (!Array.isArray(array) || index >= array.length) {
    if (index !== 0) throw new ConfigFormatError(`${path}: no element ${index} in the array there`);
    const made = [rest ? {} : null];
    setAt(root, arrayPath!, () => made, target);
    array = made;
  }
  const inArray: Target = { base: [...target.base, ...concretePath(root, arrayPath!), index], changes: target.changes };
  if (rest) setAt((array as unknown[])[index], rest.slice(1), asTyped, inArray);
  else setAt(array, String(index), asTyped, { base: inArray.base.slice(0, -1), changes: target.changes });
}

/** A value as its text, to compare with an ifValue. */
function textOf(value: unknown): string {
  if (isRawJson(value)) return value.rawJSON;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One replacement at one path. With an ifValue only an existing value is replaced: one equal to
 * it, or, with "regex:", one the expression matches (rewritten by it, $1 and all). Wings means
 * this too, though its own check compares the whole document (and inverts the regex case).
 */
function replaceAt(root: unknown, path: string, replacement: Replacement, target: Target): void {
  const { ifValue } = replacement;
  if (!ifValue) return setValue(root, path, replacement.value, target);
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
    if (pattern.test(text)) setValue(root, path, pattern.replaceAll(text, replacement.value), target);
    return;
  }
  if (text === ifValue) setValue(root, path, replacement.value, target);
}

function childrenOf(node: unknown): Array<[string | number, unknown]> {
  if (Array.isArray(node)) return node.map((child, i) => [i, child]);
  return isTree(node) ? Object.entries(node) : [];
}

/** Every replacement applied to `root` in order (changed in place); what was set is told to `changes`. */
export function applyToTree(root: unknown, replacements: readonly Replacement[], changes?: Change[]): void {
  for (const replacement of replacements) {
    const wildcard = replacement.match.indexOf(".*");
    if (wildcard === -1) {
      replaceAt(root, replacement.match, replacement, { base: [], changes });
      continue;
    }
    const before = replacement.match.slice(0, wildcard).replace(/^\.+|\.+$/g, "");
    const after = replacement.match.slice(wildcard + 2).replace(/^\.+|\.+$/g, "");
    const parent = before === "" ? { found: true, value: root } : lookup(root, before);
    if (!parent.found) continue;
    const base = before === "" ? [] : concretePath(root, before);
    for (const [key, child] of childrenOf(parent.value)) {
      if (after === "") throw new ConfigFormatError(`${replacement.match}: a wildcard needs a path after it`);
      replaceAt(child, after, replacement, { base: [...base, key], changes });
    }
  }
}
