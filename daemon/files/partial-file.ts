// Files the node writes whole (uploads, archives being made, install downloads) go to a hidden
// temporary file beside their target and are renamed into place at the end. A crash in between
// (kill -9, power loss) leaves the temporary file behind; the node removes such leftovers from
// every server folder when it starts. The name is unmistakable, "." + the target's name + "." +
// a random UUID + ".kiln-partial", so no file a user made is ever taken for one.
import { randomUUID } from "node:crypto";
import { lstatSync, readdirSync, unlinkSync, type Stats } from "node:fs";
import { nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "./fs-path";
import type { Jail } from "./jail";

const PARTIAL = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.kiln-partial$/s;

/** The temporary name (no folder) for writing the file called `target`. */
export function partialName(target: string): string {
  return `.${target}.${randomUUID()}.kiln-partial`;
}

export function isPartialName(name: string): boolean {
  return PARTIAL.test(name);
}

/**
 * Removes every leftover temporary file under the jail's root and returns their paths (relative).
 * Symlinks are never followed (a link is neither walked into nor removed), and every folder is
 * opened beneath the root, so a server still running (a container re-attached) cannot redirect it.
 */
export function removePartialFiles(jail: Jail): string[] {
  const removed: string[] = [];
  const folders = [""];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const { name, stats } of entriesOf(jail, folder)) {
      const path = folder ? `${folder}/${name}` : name;
      if (stats.isDirectory()) folders.push(path);
      else if (stats.isFile() && isPartialName(name) && unlinkQuietly(jail, path)) removed.push(path);
    }
  }
  return removed;
}

/** A folder that vanished or cannot be read is skipped: the clean-up must never stop a start. */
function entriesOf(jail: Jail, folder: string): { name: string; stats: Stats }[] {
  try {
    // By the names' bytes (core/files/raw-name): an upload under a name that is not UTF-8 leaves one so named.
    return jail.inFolder(folder, (path) =>
      readdirSync(path, { encoding: "buffer" }).flatMap((bytes) => {
        const name = nameFromBytes(bytes);
        try {
          return [{ name, stats: lstatSync(fsPath(`${path}/${name}`)) }];
        } catch {
          return []; // gone meanwhile
        }
      }),
    );
  } catch {
    return [];
  }
}

function unlinkQuietly(jail: Jail, path: string): boolean {
  try {
    jail.at(path, (entry) => unlinkSync(entry));
    return true;
  } catch {
    return false;
  }
}
