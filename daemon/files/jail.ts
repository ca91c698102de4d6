// The one filesystem jail of a server's folder, used by install steps, the file API, the socket
// and SFTP alike. A path from a template or a user is resolved against the folder and refused
// when it is absolute, climbs out with "..", or reaches through a symlink to outside the folder.
import { realpathSync, lstatSync } from "node:fs";
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

  /** Like resolve, and the path itself must not be a symlink (for writes and deletes of the link's target). */
  resolveNoFinalLink(path: string): string {
    const full = this.resolve(path);
    if (full !== this.root && isSymlink(full)) {
      const parent = this.resolve(relative(this.root, dirname(full)));
      return join(parent, basename(full));
    }
    return full;
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

function isSymlink(full: string): boolean {
  try {
    return lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}
