// Versions read from a server's folder are the server's users' text: whatever a file name, a
// folder name or a JSON field says. Only what looks like a version leaves the node, so no markup,
// path or oddity ever reaches a page, a log line or a mod site's query.
import { compareVersions } from "../../core/mods/versions";

/** The newest of `versions` (numbers compared as numbers), or null when there is none. */
export function newest(versions: readonly string[]): string | null {
  return [...versions].sort(compareVersions).at(-1) ?? null;
}

/** JSON.parse that answers null for anything that is not a JSON object. */
export function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** `key=value` lines of a Java .properties text (comments and blank lines left out). */
export function properties(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("!")) continue;
    const at = line.search(/[=:]/);
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return values;
}
