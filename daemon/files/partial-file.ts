// Files the node writes whole (uploads, archives being made, install downloads) go to a hidden
// temporary file beside their target and are renamed into place at the end. A crash in between
// (kill -9, power loss) leaves the temporary file behind; the node removes such leftovers from
// every server folder when it starts. The name is unmistakable, "." + the target's name + "." +
// a random UUID + ".kiln-partial", so no file a user made is ever taken for one.
import { randomUUID } from "node:crypto";
import { lstatSync, readdirSync, unlinkSync, type Stats } from "node:fs";
import { bytesFromName, nameFromBytes } from "../../core/files/raw-name";
import { fsPath } from "./fs-path";
import type { Jail } from "./jail";

const PARTIAL = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.kiln-partial$/s;

/** NAME_MAX on Linux, in bytes, and what the temporary name adds to the target's: ".", "." + UUID, ".kiln-partial". */
const NAME_MAX = 255;
const ADDED_BYTES = 1 + 1 + 36 + ".kiln-partial".length;

/**
 * The temporary name (no folder) for writing the file called `target`. A target longer than
 * NAME_MAX less what the name adds is cut to fit, by its bytes (a cut inside a character leaves
 * raw bytes, spelled as such): a file named up to 255 bytes can still be written, and the name
 * stays a partial one.
 */
export function partialName(target: string): string {
  const bytes = bytesFromName(target);
  const kept = bytes.length > NAME_MAX - ADDED_BYTES ? nameFromBytes(bytes.subarray(0, NAME_MAX - ADDED_BYTES)) : target;
  return `.${kept}.${randomUUID()}.kiln-partial`;
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
