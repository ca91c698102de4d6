// A move may not leave a link pointing out of the server's folder. A relative link means something
// only from where it sits: `a/b/l -> ../x` leads to `a/x`, but moved to the root it leads above the
// folder, which the rules forbid whoever makes it (the server's own process follows links and is
// not jailed; see makeSymlink). So before a move or rename, a moved link, and every link inside a
// moved folder whose target climbs above that folder, is judged from the place it is going to, as
// makeSymlink judges a new link and copy re-judges the links it copies. One leading out refuses the
// move with ErrPathOutside before anything moves.
import { readLinkText } from "./link-text";
import { posix } from "node:path";
import { outside, type Jail } from "./jail";
import { readFolder } from "./listing";
import { statPath } from "./operations";

/**
 * ErrPathOutside when moving `from` to `to` (jail-relative, normalized; `to`'s folder exists) would
 * leave a link that leads out of the folder: `from` itself, or a link beneath it. The folder is
 * walked, links never walked into; a rename inside the same folder changes no link's meaning and
 * only the entry itself is judged.
 */
export function refuseLinksLeadingOut(jail: Jail, from: string, to: string): void {
  const stats = statPath(jail, from, false);
  if (!stats.isSymbolicLink() && !stats.isDirectory()) return;
  const newFolder = realFolder(jail, parentOf(to));
  if (stats.isSymbolicLink()) {
    if (!jail.leadsInside(join(newFolder, readLink(jail, from)))) throw outside(from);
    return;
  }
  if (realFolder(jail, parentOf(from)) === newFolder) return;
  const folders = [""];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const child of readFolder(jail, join(from, folder))) {
      const rel = join(folder, child.name);
      if (child.stats.isDirectory()) folders.push(rel);
      else if (child.stats.isSymbolicLink() && !staysInsideAfterMove(jail, from, folder, readLink(jail, join(from, rel)), newFolder)) throw outside(join(from, rel));
    }
  }
}

/**
 * Whether a link in `top`/`folder` with `target` still leads inside once `top` sits in `newFolder`
 * (real, jail-relative). Followed by spelling while it walks real folders of the moved tree (whose
 * ".." is known: their parent, and above the top, `newFolder`); from the point it climbs above the
 * top, the rest is judged by the kernel from `newFolder`. A target that stays inside the moved tree
 * means the same wherever the tree goes (a link on its way is judged on its own); one that passes
 * a link and then climbs (`s/..`) cannot be judged before the move and is refused.
 */
function staysInsideAfterMove(jail: Jail, top: string, folder: string, target: string, newFolder: string): boolean {
  if (target.startsWith("/")) return false;
  const position = folder ? folder.split("/") : [];
  const parts = target.split("/").filter((part) => part !== "" && part !== ".");
  for (const [i, part] of parts.entries()) {
    if (part === "..") {
      if (position.length === 0) return jail.leadsInside(join(newFolder, parts.slice(i + 1).join("/")));
      position.pop();
      continue;
    }
    let isRealFolder = false;
    try {
      isRealFolder = statPath(jail, join(top, [...position, part].join("/")), false).isDirectory();
    } catch {
      // missing: a dangling name inside the tree
    }
    if (!isRealFolder) return !parts.slice(i + 1).includes("..");
    position.push(part);
  }
  return true;
}

function realFolder(jail: Jail, path: string): string {
  return jail.inFolder(path, (held) => jail.realRelative(held, path));
}

function readLink(jail: Jail, path: string): string {
  return jail.at(path, readLinkText);
}

const parentOf = (path: string) => (posix.dirname(path) === "." ? "" : posix.dirname(path));
const join = (base: string, rel: string) => (base === "" ? rel : rel === "" ? base : `${base}/${rel}`);
