// The properties parser (Java .properties: Minecraft's server.properties and most of its kin).
// Read with dot-properties, which knows the format's escapes, separators and continued lines; a
// replaced key's line is written anew as key=value with the value escaped as Wings writes it
// (line breaks as \n, everything past ASCII as \uXXXX), so no value can add a line or a key.
// Unlike Wings, which keeps only the comments at the top, every other line stays as it was.
import { parseLines, stringify, type Pair } from "dot-properties";
import { REGEX_PREFIX, type Replacement } from "./types";

function line(key: string, value: string): string {
  const text = stringify([[key, value]], { keySep: "=", lineWidth: null, latin1: true }).replace(/\n$/, "");
  return text.replace(/[\u0080-\u00ff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function pairs(text: string): Pair[] {
  return (parseLines(text, true) as Array<{ type: string }>).filter((node): node is Pair => node.type === "PAIR");
}

function applyOne(text: string, replacement: Replacement): string {
  const found = pairs(text).filter((pair) => pair.key === replacement.match);
  const { ifValue } = replacement;
  // As Wings: with an ifValue, only a key that is there with exactly that value changes.
  if (ifValue && (found.length === 0 || found.at(-1)!.value !== ifValue)) return text;
  if (found.length === 0) {
    const separator = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${separator}${line(replacement.match, replacement.value)}\n`;
  }
  // Every line of the key, last first so earlier ranges stay right: Java reads the last one.
  let result = text;
  for (const pair of found.reverse()) {
    const [start, , , end] = pair.range!;
    result = result.slice(0, start) + line(replacement.match, replacement.value) + result.slice(end);
  }
  return result;
}

export function rewriteProperties(text: string, replacements: readonly Replacement[]): string {
  let result = text;
  for (const replacement of replacements) {
    // A "regex:" ifValue is a yaml/json form; Wings compares it literally here, so never matches.
    if (replacement.ifValue?.startsWith(REGEX_PREFIX)) continue;
    result = applyOne(result, replacement);
  }
  return result;
}
