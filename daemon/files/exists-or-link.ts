// Whether anything is at a path, a link counted as itself (lstat: a dangling link is there too, and
// a link is never followed out of a server's folder). Any failure to look counts as nothing there:
// the callers move aside or remove what is there, and a path they cannot see is one they cannot move.
import { lstatSync, type PathLike } from "node:fs";

export function existsOrLink(path: PathLike): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
