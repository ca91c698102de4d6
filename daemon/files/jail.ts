// The one filesystem jail of a server's folder, used by install steps, the file API, the socket
// and SFTP alike. A path from a template or a user is resolved against the folder and refused
// when it is absolute, climbs out with "..", or reaches through a symlink to outside the folder.
import { realpathSync } from "node:fs";
import { resolve, relative, sep, dirname, basename, join } from "node:path";
import { KilnError } from "../../core/errors";

export class Jail {
  readonly root: string;

  constructor(root: string) {
    this.root = realExisting(resolve(root));
  }

  /**
   * The absolute path of `path` inside the jail. The deepest part of it that exists is resolved
   * through symlinks and must still be inside; the rest does not exist yet and cannot escape.
   */
  resolve(path: string): string {
    if (path.includes("\0")) throw outside(path);
    const full = resolve(this.root, path);
    if (!this.contains(full)) throw outside(path);
    const real = realExisting(full);
    if (!this.contains(real)) throw outside(path);
    return full;
  }

  /** Like resolve, and when the path is a symlink (pointing inside), the link itself rather than its target. */
  resolveNoFinalLink(path: string): string {
    this.resolve(path);
    return this.resolveEntry(path);
  }

  /**
   * For deleting an entry: the parent folder is resolved through the jail and the last part is
   * not followed, so a symlink, even one pointing out of the folder, names the link itself.
   */
  resolveEntry(path: string): string {
    if (path.includes("\0")) throw outside(path);
    const full = resolve(this.root, path);
    if (!this.contains(full)) throw outside(path);
    if (full === this.root) return full;
    return join(this.resolve(relative(this.root, dirname(full))), basename(full));
  }

  /** The path relative to the jail's root, "/"-separated, as shown to users. */
  relative(full: string): string {
    return relative(this.root, full).split(sep).join("/");
  }

  contains(full: string): boolean {
    return full === this.root || full.startsWith(this.root + sep);
  }
}

function outside(path: string): KilnError {
  return new KilnError("ErrNoPermission", { path }, `path is outside the server's folder: ${path}`);
}

/** realpath of the deepest existing ancestor, with the missing tail appended. */
function realExisting(full: string): string {
  let current = full;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...tail.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return full;
      tail.push(basename(current));
      current = parent;
    }
  }
}
