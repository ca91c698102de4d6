// Renaming and moving inside a server's folder (the file manager's rename and move). Both ends go
// through the jail's descriptors (jail.at: the parent folders opened beneath the root, the last
// names not followed), so a link planted on the way cannot carry the entry out, nor bring
// another server's or the host's file in. A move never replaces what is there (as SFTP v3 and
// every file manager ask first), and a folder cannot go into itself. A relative link moved (or
// inside a moved folder) may not end up pointing out of the folder (./moved-links).
import { renameSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { statPath } from "./operations";
import { refuseLinksLeadingOut } from "./moved-links";

/** Moves (or renames) `from` to `to`, both jail-relative; the target's folder must exist. */
export function movePath(jail: Jail, from: string, to: string): string {
  const source = jail.normalize(from);
  const target = jail.normalize(to);
  if (source === "" || target === "") throw new KilnError("ErrNoPermission", { path: source === "" ? from : to }, "the server's folder itself cannot be moved or replaced");
  const stats = statPath(jail, source, false);
  if (source === target) return target;
  refuseTaken(jail, target);
  if (stats.isDirectory()) refuseIntoItself(jail, source, parentOf(target));
  refuseLinksLeadingOut(jail, source, target);
  jail.at(source, (entry) =>
    jail.at(target, (destination) => {
      try {
        renameSync(entry, destination);
      } catch (error) {
        // The kernel's own word on a folder moved beneath itself (a race past the check above).
        if ((error as { code?: string }).code === "EINVAL") throw intoItself(source);
        throw error;
      }
    }),
  );
  return target;
}

export function parentOf(path: string): string {
  const parent = posix.dirname(path);
  return parent === "." ? "" : parent;
}

/** ErrFileExists when something (a dangling link too) has the name `path` already. */
export function refuseTaken(jail: Jail, path: string): void {
  try {
    statPath(jail, path, false);
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNotFound") return;
    throw error;
  }
  throw new KilnError("ErrFileExists", { path }, `${path} exists already`);
}

/**
 * A folder cannot be moved or copied into itself. Judged on where the kernel really finds both
 * (links on the way followed), not on the spelling: "a/link/x" may be inside "a/b".
 */
export function refuseIntoItself(jail: Jail, folder: string, destinationFolder: string): void {
  const real = jail.inFolder(folder, (held) => jail.realRelative(held, folder));
  const into = jail.inFolder(destinationFolder, (held) => jail.realRelative(held, destinationFolder));
  if (into === real || into.startsWith(`${real}/`) || real === "") throw intoItself(folder);
}

function intoItself(path: string): KilnError {
  return new KilnError("ErrMoveIntoItself", { path }, `${path} cannot be moved or copied into itself`);
}
