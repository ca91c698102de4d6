// Paths of the node's own machine (not a server's folder, which goes through the jail): what the
// sandbox and restic's view of a server's folder mount, judged as the node sees them.
import { lstatSync } from "node:fs";
import { sep } from "node:path";

/** Whether `path` is a real folder (a link to one is not). */
export function isHostFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `path` is `folder` or below it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}
