// Wildcards in a step's source (PufferPanel v3's move takes "paper-*.jar"): `*` and `?` in the
// last part of a path, matched against that folder's entries as the jail lists them.
import { posix } from "node:path";
import type { Jail } from "../files/jail";
import { readFolder } from "../files/listing";

export function hasWildcard(path: string): boolean {
  return /[*?]/.test(posix.basename(path));
}

/** The paths (jail-relative) whose names match the pattern's last part, sorted; none when the folder is missing. */
export function expandWildcard(jail: Jail, pattern: string): string[] {
  const normal = jail.normalize(pattern);
  const dir = posix.dirname(normal) === "." ? "" : posix.dirname(normal);
  const name = new RegExp(`^${posix.basename(normal).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
  let entries: string[];
  try {
    entries = readFolder(jail, dir).map((entry) => entry.name);
  } catch {
    return [];
  }
  return entries.filter((entry) => name.test(entry)).sort().map((entry) => (dir ? `${dir}/${entry}` : entry));
}
